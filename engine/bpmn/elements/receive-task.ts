import type { Behaviour } from "../behaviour";

/** Waits for its message (or for an explicit trigger when it names none). */
export const receiveTask: Behaviour = {
  execute(run, token, el) {
    if (el.event?.kind === "message" && el.event.name) run.subscribe(token, el.id, "message", el.event.name);
  },
};
