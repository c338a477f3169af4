import type { Behaviour } from "./behaviour";

/** A stage creates its children when it starts; terminating it ends them (CaseRun.terminate). */
export const stage: Behaviour = {
  async start(run, pi, pm) {
    await run.createChildren(pi.id, pm.children ?? []);
  },
};
