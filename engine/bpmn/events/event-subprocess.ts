import type { ElementModel } from "../../model/bpmn/types";
import { nextRepeat } from "../../jobs/timers";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";

/** Starts an event subprocess of `scope` from `start`; an interrupting one first cancels everything else in the scope. */
export function triggerEventSubprocess(
  run: Run,
  scope: ExecutionRecord,
  start: ElementModel,
  repeat?: { left: number; spec: string },
): void {
  const esp = run.el(scope, start.scope);
  if (start.cancelActivity !== false) {
    for (const c of run.children(scope)) run.cancelExecution(c);
    run.removeEventsOf(scope);
  } else if (repeat) {
    const next = nextRepeat(repeat, run.now);
    if (next) run.newJob(scope, start, "timer", next.dueAt, next.repeat ? { repeat: next.repeat } : {});
  }
  const token = run.newToken(scope);
  token.data.startAt = start.id;
  run.schedule(() => run.enter(token, esp.id));
}

/** Event subprocesses directly inside the scope execution `scope`. */
export function eventSubprocessesOf(run: Run, scope: ExecutionRecord): string[] {
  if (!scope.parentId) return run.model(scope).eventSubprocesses;
  return run.el(scope, scope.scopeId!).eventSubprocesses ?? [];
}
