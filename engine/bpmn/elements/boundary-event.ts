import type { Behaviour } from "../behaviour";

/** Boundary events are entered by their trigger, which already moved the token; they only continue. */
export const boundaryEvent: Behaviour = {
  execute(run, token) {
    run.leave(token);
  },
};
