import type { Behaviour } from "../behaviour";

/** Manual tasks, plain tasks and send tasks without implementation: nothing for the engine to do. */
export const passThrough: Behaviour = {
  execute(run, token) {
    run.leave(token);
  },
};
