import type { Behaviour } from "../behaviour";
import { armEvent } from "../events/event-subscriptions";

/** Arms every following catch event on the token; the first to fire wins and disarms the rest. */
export const eventBasedGateway: Behaviour = {
  execute(run, token, el) {
    const flows = run.model(token).flows;
    for (const id of el.outgoing) {
      const target = run.el(token, flows[id].target);
      if (target.type === "receiveTask") run.subscribe(token, target.id, "message", target.event?.name ?? target.id);
      else armEvent(run, token, target);
    }
  },
};
