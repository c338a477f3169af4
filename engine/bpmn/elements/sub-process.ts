import { UnprocessableError } from "../../errors";
import type { Behaviour } from "../behaviour";
import { armEventSubprocesses, startScope } from "../events/event-subscriptions";

/** Embedded and event subprocesses: a scope execution below the token, started at its start event. */
export const subProcess: Behaviour = {
  execute(run, token, el) {
    const start = token.data.startAt ?? (el.starts ?? []).find((id) => run.el(token, id).event?.kind === "none");
    if (token.data.startAt) {
      delete token.data.startAt;
      run.mark(token);
    }
    const implicit = !start && !el.starts?.length ? (el.implicitStarts ?? []) : [];
    if (!start && !implicit.length) throw new UnprocessableError(`Subprocess '${el.id}' has no none start event`);
    const scope = run.newExecution(run.space(token), token.id, "scope", el.id);
    if (start) return startScope(run, scope, el.eventSubprocesses ?? [], start);
    // No start event: every element without incoming flow starts, each on a token of its own (BPMN 2.0 §10.5.6).
    armEventSubprocesses(run, scope, el.eventSubprocesses ?? []);
    for (const id of implicit) {
      const t = run.newToken(scope);
      run.schedule(() => run.enter(t, id));
    }
  },
};
