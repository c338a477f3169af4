import type { ElementModel } from "../../model/bpmn/types";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";

/** After an activity with a compensate boundary completes, remember it on its scope so a later throw can undo it. */
export function recordCompensation(run: Run, token: ExecutionRecord, el: ElementModel): void {
  for (const id of el.boundaries ?? []) {
    const b = run.el(token, id);
    if (b.event?.kind !== "compensate" || !b.compensationHandler) continue;
    const scope = run.parent(token);
    if (!scope) continue;
    run.subscribe(scope, el.id, "compensate", el.id, { handler: b.compensationHandler });
  }
}

/** The scope execution a token belongs to (skipping multi-instance bodies). */
function scopeOf(run: Run, token: ExecutionRecord): ExecutionRecord | undefined {
  let s = run.parent(token);
  while (s && s.kind === "mi") s = run.parent(s);
  return s;
}

/**
 * A compensation throw: runs the handlers of the completed activities of its scope (or only `activityRef`), most recent
 * first, one after the other; the thrower waits and continues (or ends, for an end event) once they are done.
 */
export function throwCompensation(run: Run, thrower: ExecutionRecord, el: ElementModel): boolean {
  const scope = scopeOf(run, thrower);
  if (!scope) return false;
  const space = run.space(scope);
  const subs = [...space.subs.values()]
    .filter((s) => s.type === "compensate" && s.executionId === scope.id && (!el.compensateActivity || s.activityId === el.compensateActivity))
    .sort((a, b) => b.createdAt - a.createdAt || (b.id < a.id ? -1 : 1));
  if (!subs.length) return false;
  for (const s of subs) run.s.putSub(space, s, "delete");
  thrower.data.pending = subs.map((s) => s.data.handler!);
  run.mark(thrower);
  nextHandler(run, thrower);
  return true;
}

function nextHandler(run: Run, thrower: ExecutionRecord): void {
  const pending = thrower.data.pending ?? [];
  const handler = pending.shift();
  run.mark(thrower);
  if (!handler) {
    delete thrower.data.pending;
    const el = run.el(thrower);
    if (el.type === "endEvent") { run.actEnd(thrower, "completed"); run.endToken(thrower); } else run.leave(thrower);
    return;
  }
  const token = run.newToken(run.parent(thrower)!);
  token.data.compensating = thrower.id;
  run.schedule(() => run.enter(token, handler));
}

/** A compensation handler token finished: start the next handler or release the thrower. */
export function handlerDone(run: Run, token: ExecutionRecord): boolean {
  const throwerId = token.data.compensating;
  if (!throwerId) return false;
  const thrower = run.space(token).executions.get(throwerId);
  run.removeExecution(token);
  if (thrower) run.schedule(() => nextHandler(run, thrower));
  return true;
}
