import type { Behaviour } from "../behaviour";

/** Start events (none, message, signal, timer, conditional) only pass the token on: triggering happened before. */
export const startEvent: Behaviour = {
  execute(run, token) {
    run.leave(token);
  },
};
