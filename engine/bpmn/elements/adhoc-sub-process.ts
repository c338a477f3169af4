import { loopAgentOf, startAgentLoop } from "../agent-loop-start";
import type { Behaviour } from "../behaviour";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import type { ElementModel } from "../../model/bpmn/types";

/**
 * Ad-hoc subprocess (Flowable's semantics): a scope execution that starts nothing by itself. The caller starts enabled
 * activities one by one (engine command executeAdhocActivity); it completes when its completion condition holds after an
 * inner element is left, or when the caller completes it.
 */
export const adhocSubProcess: Behaviour = {
  execute(run, token, el) {
    const scope = run.newExecution(run.space(token), token.id, "scope", el.id);
    const agent = loopAgentOf(run, token, el);
    if (agent) startAgentLoop(run, scope, el, agent);
  },
};

/** The ad-hoc subprocess whose scope execution `scope` is, if it is one. */
export function adhocOf(run: Run, scope: ExecutionRecord | undefined): ElementModel | undefined {
  if (scope?.kind !== "scope" || !scope.parentId) return undefined;
  const el = run.model(scope).elements[scope.scopeId!];
  return el?.adhoc ? el : undefined;
}

/**
 * Called as a token inside an ad-hoc subprocess leaves an element: the completion condition is read now, before the token
 * moves on; the returned step (run once the token has left) ends the subprocess when the condition held and either the
 * remaining activities are to be cancelled or none is left.
 */
export function adhocLeaving(run: Run, token: ExecutionRecord): (() => void) | undefined {
  const scope = run.parent(token);
  const el = adhocOf(run, scope);
  const cond = el?.adhoc?.completionCondition;
  if (!el || !cond || !run.evalCondition(token, cond)) return undefined;
  return () => {
    if (!run.alive(scope!)) return;
    if (!el.adhoc!.cancelRemaining && run.children(scope!).some((c) => c.id !== token.id)) return;
    // Queued behind the token's next step, as in Flowable: whatever it started is then cancelled with the rest.
    run.schedule(() => completeAdhoc(run, scope!));
  };
}

/** Ends an ad-hoc subprocess: whatever still runs inside is cancelled, and its token leaves through the outgoing flows. */
export function completeAdhoc(run: Run, scope: ExecutionRecord): void {
  if (!run.alive(scope)) return;
  for (const c of run.children(scope)) run.cancelExecution(c);
  run.completeScope(scope);
}
