import { UnprocessableError } from "../../errors";
import type { Behaviour } from "../behaviour";
import { startScope } from "../events/event-subscriptions";

/** Embedded and event subprocesses: a scope execution below the token, started at its start event. */
export const subProcess: Behaviour = {
  execute(run, token, el) {
    const start = token.data.startAt ?? (el.starts ?? []).find((id) => run.el(token, id).event?.kind === "none");
    if (token.data.startAt) {
      delete token.data.startAt;
      run.mark(token);
    }
    if (!start) throw new UnprocessableError(`Subprocess '${el.id}' has no none start event`);
    const scope = run.newExecution(run.space(token), token.id, "scope", el.id);
    startScope(run, scope, el.eventSubprocesses ?? [], start);
  },
};
