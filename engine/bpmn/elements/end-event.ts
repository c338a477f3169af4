import type { Behaviour } from "../behaviour";
import { throwSignal } from "../events/broadcast";
import { throwError, throwEscalation } from "../events/errors";
import { throwCompensation } from "../events/compensation";
import { cancelTransaction } from "../events/transaction";
import { adhocLeaving } from "./adhoc-sub-process";

/** End events: none ends the token; terminate ends its scope (or everything); cancel cancels its transaction; error, escalation and signal throw first. */
export const endEvent: Behaviour = {
  execute(run, token, el) {
    const kind = el.event?.kind ?? "none";
    if (kind === "terminate") {
      run.actEnd(token, "completed");
      let scope = run.parent(token)!;
      if (el.terminateAll) while (run.parent(scope)) scope = run.parent(scope)!;
      // A multi-instance body is not a scope of its own: terminate the whole instance inside it.
      for (const c of run.children(scope)) run.cancelExecution(c);
      if (!run.parent(scope)) run.schedule(() => run.endInstance(run.space(scope), "terminated"));
      else run.completeScope(scope);
      return;
    }
    if (kind === "compensate" && throwCompensation(run, token, el)) return;
    if (kind === "cancel") return cancelTransaction(run, token);
    if (kind === "error") return throwError(run, token, el.event!.code ?? "");
    if (kind === "escalation") throwEscalation(run, token, el.event!.code ?? "");
    if (kind === "signal") throwSignal(run, String(run.evalValue(token, el.event!.name ?? el.id)));
    if (!run.alive(token)) return;
    const adhocDone = adhocLeaving(run, token);
    run.actEnd(token, "completed");
    run.endToken(token);
    adhocDone?.();
  },
};
