import type { Behaviour } from "./behaviour";

/** A plain task: blocking ones wait for a trigger, non-blocking ones complete at once. */
export const task: Behaviour = {
  async start(run, pi, pm) {
    if (!pm.isBlocking) await run.complete(pi);
  },
};
