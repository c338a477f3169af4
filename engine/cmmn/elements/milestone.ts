import type { Behaviour } from "./behaviour";

/** A milestone occurs as soon as it is reached (its entry criteria are its condition). */
export const milestone: Behaviour = {
  async start(run, pi) {
    await run.complete(pi);
  },
};
