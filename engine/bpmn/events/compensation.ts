import type { ElementModel } from "../../model/bpmn/types";
import type { Run } from "../run";
import type { ExecutionRecord, SubscriptionRecord } from "../state";
import { transactionCompensated } from "./transaction-cancelled";

/**
 * A compensation record is a "compensate" subscription on the scope execution the completed activity ran in. Its data:
 * the handler (an activity marked isForCompensation, or a compensation event subprocess), the variables of the completed
 * subprocess it came from, the subprocesses it was lifted out of (`path`), the records a compensation event subprocess
 * may compensate in turn (`inner`), and `rank` (the original record's time-ordered id, kept across lifts for ordering).
 */
interface CompensationData {
  handler?: string;
  variables?: Record<string, unknown>;
  path?: string[];
  inner?: PlainRecord[];
  rank?: string;
}
interface PlainRecord {
  activityId: string;
  createdAt: number;
  data: CompensationData;
}
type CompensatingData = ExecutionRecord["data"] & { queue?: PlainRecord[] };

const dataOf = (s: SubscriptionRecord): CompensationData => s.data as CompensationData;
const rankOf = (r: { id?: string; data: CompensationData }) => r.data.rank ?? r.id ?? "";
/** Most recent first. */
const newestFirst = (a: PlainRecord & { id?: string }, b: PlainRecord & { id?: string }) =>
  b.createdAt - a.createdAt || (rankOf(b) < rankOf(a) ? -1 : 1);

function addRecord(run: Run, on: ExecutionRecord, r: PlainRecord): void {
  const sub = run.subscribe(on, r.activityId, "compensate", r.activityId, r.data as SubscriptionRecord["data"]);
  sub.createdAt = r.createdAt;
}

/** After an activity with a compensate boundary completes, remember it on its scope so a later throw can undo it. */
export function recordCompensation(run: Run, token: ExecutionRecord, el: ElementModel): void {
  for (const id of el.boundaries ?? []) {
    const b = run.el(token, id);
    if (b.event?.kind !== "compensate" || !b.compensationHandler) continue;
    const scope = scopeOf(run, token);
    if (!scope) continue;
    // One record per inner instance of a multi-instance activity, with that instance's own variables (its item).
    const variables = run.isMiInner(token, el) ? localsOf(run, token) : undefined;
    const sub = run.subscribe(scope, el.id, "compensate", el.id, { handler: b.compensationHandler, variables });
    (sub.data as CompensationData).rank = sub.id;
  }
}

/**
 * The scope execution a token belongs to. A multi-instance body and the token holding it are not scopes: records of
 * an inner instance go to the scope around the multi-instance activity, or they would die when the activity leaves.
 */
function scopeOf(run: Run, token: ExecutionRecord): ExecutionRecord | undefined {
  let s = run.parent(token);
  while (s && s.kind === "mi") {
    const holder = run.parent(s);
    s = holder ? run.parent(holder) : undefined;
  }
  return s;
}

const localsOf = (run: Run, e: ExecutionRecord): Record<string, unknown> =>
  Object.fromEntries(run.space(e).vars.get(e.id) ?? []);

/** The compensation event subprocess directly inside a subprocess, if it has one. */
function compensationEsp(
  run: Run,
  scope: ExecutionRecord,
  el: ElementModel,
): { esp: string; start: string } | undefined {
  for (const esp of el.eventSubprocesses ?? []) {
    const start = (run.el(scope, esp).starts ?? []).find((id) => run.el(scope, id).event?.kind === "compensate");
    if (start) return { esp, start };
  }
  return undefined;
}

/**
 * A subprocess completes: its compensation records would die with its scope. Unless the subprocess has a compensation
 * handler of its own (a compensate boundary, which then stands for its content), they move to the enclosing scope, with
 * the subprocess' variables as they are now: wrapped in one record for its compensation event subprocess if it has one,
 * else each on its own (compensating the subprocess then undoes its activities, most recent first).
 */
export function liftCompensation(run: Run, scope: ExecutionRecord): void {
  const holder = run.parent(scope);
  const el = run.model(scope).elements[scope.scopeId!];
  if (!holder || !el || el.triggeredByEvent || holder.data.compensating) return;
  if ((el.boundaries ?? []).some((id) => run.el(scope, id).event?.kind === "compensate")) return;
  const target = scopeOf(run, holder);
  if (!target) return;
  const space = run.space(scope);
  const inner: PlainRecord[] = [...space.subs.values()]
    .filter((s) => s.type === "compensate" && s.executionId === scope.id)
    .map((s) => ({
      activityId: s.activityId,
      createdAt: s.createdAt,
      data: { ...dataOf(s), rank: rankOf({ id: s.id, data: dataOf(s) }) },
    }));
  // An inner instance of a multi-instance subprocess keeps its item and loopCounter on the token holding the scope.
  const innerLocals = run.parent(holder)?.kind === "mi" ? localsOf(run, holder) : {};
  const variables = { ...innerLocals, ...localsOf(run, scope) };
  const esp = compensationEsp(run, scope, el);
  if (esp) {
    const sub = run.subscribe(target, el.id, "compensate", el.id, {
      handler: esp.esp,
      variables,
      inner,
    } as SubscriptionRecord["data"]);
    (sub.data as CompensationData).rank = sub.id;
    return;
  }
  for (const r of inner.sort((a, b) => -newestFirst(a, b)))
    addRecord(run, target, {
      ...r,
      data: { ...r.data, variables: { ...variables, ...r.data.variables }, path: [el.id, ...(r.data.path ?? [])] },
    });
}

/** Records a thrower in `scope` can reach: the scope's own, plus those handed to the compensation event subprocess it runs in. */
function reachable(run: Run, scope: ExecutionRecord): SubscriptionRecord[] {
  const holder = run.parent(scope);
  const ids = new Set([scope.id]);
  if (holder?.data.compensating) ids.add(holder.id);
  return [...run.space(scope).subs.values()].filter((s) => s.type === "compensate" && ids.has(s.executionId!));
}

/**
 * A compensation throw (or a transaction's cancel end): runs the handlers of the completed activities of its scope (or of
 * `activityRef` only, which may name a completed subprocess), most recent first, one after the other; the thrower waits
 * and continues (or ends) once they are done. False when there is nothing to compensate.
 */
export function throwCompensation(run: Run, thrower: ExecutionRecord, el: ElementModel): boolean {
  const scope = scopeOf(run, thrower);
  if (!scope) return false;
  const ref = el.compensateActivity;
  const subs = reachable(run, scope).filter((s) => !ref || s.activityId === ref || dataOf(s).path?.includes(ref));
  if (!subs.length) return false;
  const space = run.space(scope);
  for (const s of subs) run.s.putSub(space, s, "delete");
  const data = thrower.data as CompensatingData;
  data.queue = subs
    .map((s) => ({ id: s.id, activityId: s.activityId, createdAt: s.createdAt, data: dataOf(s) }))
    .sort(newestFirst)
    .map(({ activityId, createdAt, data: d }) => ({ activityId, createdAt, data: d }));
  run.mark(thrower);
  nextHandler(run, thrower);
  return true;
}

function nextHandler(run: Run, thrower: ExecutionRecord): void {
  const data = thrower.data as CompensatingData;
  // `pending` (handler ids only) is what executions saved before compensation records carried more.
  const legacy = data.pending?.shift();
  const rec = legacy ? { activityId: legacy, createdAt: 0, data: { handler: legacy } } : data.queue?.shift();
  run.mark(thrower);
  if (!rec) {
    delete data.pending;
    delete data.queue;
    const el = run.el(thrower);
    if (el.event?.kind === "cancel") transactionCompensated(run, thrower);
    else if (el.type === "endEvent") {
      run.actEnd(thrower, "completed");
      run.endToken(thrower);
    } else run.leave(thrower);
    return;
  }
  const token = run.newToken(run.parent(thrower)!);
  token.data.compensating = thrower.id;
  // The handler sees the variables of the completed subprocess it undoes, as they were when it completed.
  for (const [k, v] of Object.entries(rec.data.variables ?? {})) run.setLocal(token, k, v);
  const handler = run.el(token, rec.data.handler!);
  if (handler.triggeredByEvent) {
    token.data.startAt = (handler.starts ?? []).find((id) => run.el(token, id).event?.kind === "compensate");
    for (const r of rec.data.inner ?? []) addRecord(run, token, r);
  }
  run.mark(token);
  run.schedule(() => run.enter(token, handler.id));
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
