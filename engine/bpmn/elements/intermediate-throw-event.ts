import type { Behaviour } from "../behaviour";
import { throwSignal } from "../events/broadcast";
import { throwEscalation } from "../events/errors";
import { throwCompensation } from "../events/compensation";

/** Throws its signal or escalation, jumps to its link, or just passes (none, message: no engine-level target). */
export const intermediateThrowEvent: Behaviour = {
  execute(run, token, el) {
    const kind = el.event?.kind;
    if (kind === "link") {
      const target = Object.values(run.model(token).elements).find(
        (x) =>
          x.type === "intermediateCatchEvent" &&
          x.event?.kind === "link" &&
          x.event.name === el.event!.name &&
          x.scope === el.scope,
      )!;
      run.actEnd(token, "completed");
      run.schedule(() => run.enter(token, target.id));
      return;
    }
    if (kind === "compensate" && throwCompensation(run, token, el)) return;
    if (kind === "signal") throwSignal(run, String(run.evalValue(token, el.event!.name ?? el.id)));
    if (kind === "escalation") throwEscalation(run, token, el.event!.code ?? "");
    if (run.alive(token)) run.schedule(() => run.alive(token) && run.leave(token));
  },
};
