import type { Behaviour } from "../behaviour";
import { armEvent } from "../events/event-subscriptions";

/** Waits for its timer, message, signal or condition; a link catch passes straight through (it was jumped to). */
export const intermediateCatchEvent: Behaviour = {
  execute(run, token, el) {
    const kind = el.event?.kind;
    if (kind === "link") return run.leave(token);
    if (kind === "conditional" && run.evalCondition(token, el.event!.condition!)) return run.leave(token);
    armEvent(run, token, el);
  },
};
