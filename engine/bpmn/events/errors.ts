import { UnprocessableError } from "../../errors";
import type { ElementModel } from "../../model/bpmn/types";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import { triggerBoundary } from "./boundary";
import { eventSubprocessesOf, triggerEventSubprocess } from "./event-subprocess";

type Kind = "error" | "escalation";

function pick(run: Run, scopeExec: ExecutionRecord, ids: string[], kind: Kind, code: string): ElementModel | undefined {
  const cands = ids.map((id) => run.el(scopeExec, id)).filter((e) => e.event?.kind === kind && !e.invalid);
  return cands.find((e) => e.event!.code === code) ?? cands.find((e) => !e.event!.code);
}

/**
 * Looks for the nearest catcher of an error/escalation, from the activity `from` rests at outwards:
 * boundary events on the activity, then event subprocesses of the enclosing scope, then the enclosing activity, up to
 * the calling process. Returns false when nothing catches it.
 */
function propagate(run: Run, from: ExecutionRecord, kind: Kind, code: string): boolean {
  let cur: ExecutionRecord | undefined = from;
  while (cur) {
    // Boundary events of a multi-instance activity belong to the body's holder, not to each inner instance.
    if (cur.activityId && run.parent(cur)?.kind !== "mi") {
      const el = run.el(cur);
      const b = pick(run, cur, el.boundaries ?? [], kind, code);
      if (b) {
        triggerBoundary(run, cur, b);
        return true;
      }
    }
    const scope = run.parent(cur);
    if (!scope) break;
    // Thrown from inside an event subprocess: the event subprocesses of its own scope are not asked again (a
    // re-thrown escalation would loop there); the search goes on outwards, to the boundary of the enclosing activity.
    const fromEsp = !!cur.activityId && !!run.el(cur).triggeredByEvent;
    if (scope.kind === "scope" && !fromEsp) {
      const espIds = eventSubprocessesOf(run, scope);
      const starts = espIds.flatMap((id) => run.el(scope, id).starts ?? []);
      const s = pick(run, scope, starts, kind, code);
      if (s) {
        triggerEventSubprocess(run, scope, s);
        return true;
      }
    }
    const holder = run.parent(scope);
    if (holder) {
      cur = holder;
      continue;
    }
    // Reached the process instance: continue in the calling process, if any.
    const inst = run.space(scope).instance;
    if (!inst.parentInstanceId || !inst.parentExecutionId) break;
    const parentSpace = run.s.require(inst.parentInstanceId);
    const callToken = parentSpace.executions.get(inst.parentExecutionId);
    if (!callToken) break;
    const caught = propagateFromCall(run, callToken, kind, code);
    return caught;
  }
  return false;
}

function propagateFromCall(run: Run, callToken: ExecutionRecord, kind: Kind, code: string): boolean {
  // The called instance is abandoned when its error escapes; an escalation leaves it running.
  if (kind === "error") {
    const child = (callToken.data as { childInstanceId?: string }).childInstanceId;
    if (child) {
      delete (callToken.data as { childInstanceId?: string }).childInstanceId;
      const space = run.s.require(child);
      for (const e of [...space.executions.values()]) if (e.id !== space.instance.id) run.cancelExecution(e);
      const root = space.executions.get(space.instance.id);
      if (root) run.removeExecution(root, true);
      space.instance.state = "COMPLETED";
      space.instance.endTime = run.now;
      space.instance.endReason = `error ${code}`;
      run.s.touchInstance(space);
    }
  }
  return propagate(run, callToken, kind, code);
}

/** Throws a BPMN error from `from`; an uncaught error fails the command (rolled back, reported to the caller). */
export function throwError(run: Run, from: ExecutionRecord, code: string, message?: string): void {
  if (!propagate(run, from, "error", code))
    throw new UnprocessableError(
      `BPMN error '${code}'${message ? ` (${message})` : ""} thrown at '${from.activityId}' was not caught by any boundary event or event subprocess`,
    );
}

/** Throws an escalation; uncaught escalations are ignored, as BPMN says. */
export function throwEscalation(run: Run, from: ExecutionRecord, code: string): void {
  propagate(run, from, "escalation", code);
}
