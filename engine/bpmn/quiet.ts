import type { Run } from "./run";
import type { ExecutionRecord } from "./state";
import { fire } from "./events/triggers";

/** True when `from`'s activity can still lead, inside the same scope, to `targetId` (boundary events included). */
function canReach(run: Run, from: ExecutionRecord, targetId: string): boolean {
  const m = run.model(from);
  const seen = new Set<string>();
  const stack = [from.activityId!];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === targetId && id !== from.activityId) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    const el = m.elements[id];
    if (!el) continue;
    for (const f of el.outgoing) stack.push(m.flows[f].target);
    for (const b of el.boundaries ?? []) stack.push(b);
  }
  return false;
}

/** Inclusive joins whose other branches can no longer arrive fire now (Flowable's converging inclusive gateway rule). */
function checkInclusiveJoins(run: Run): boolean {
  let fired = false;
  for (const space of run.s.spaces.values()) {
    for (const token of [...space.executions.values()]) {
      if (token.state !== "joined" || !run.alive(token)) continue;
      const el = run.el(token);
      if (el.type !== "inclusiveGateway") continue;
      const parent = run.parent(token)!;
      const siblings = run.children(parent);
      const waiting = siblings.filter((s) => s.state === "joined" && s.activityId === el.id);
      const pending = siblings.filter(
        (s) =>
          !(s.state === "joined" && s.activityId === el.id) &&
          s.activityId &&
          (canReach(run, s, el.id) || (run.children(s).length > 0 && canReach(run, s, el.id))),
      );
      if (pending.length) continue;
      for (const w of waiting) if (w.id !== token.id) run.removeExecution(w);
      token.state = "active";
      run.mark(token);
      run.schedule(() => {
        const flows = selectInclusive(run, token);
        return Array.isArray(flows) ? run.leave(token, flows) : flows.then((f) => run.leave(token, f));
      });
      fired = true;
    }
  }
  return fired;
}

/** Outgoing flows of an inclusive gateway: every true condition, else the default. */
export function selectInclusive(run: Run, token: ExecutionRecord) {
  return run.chooseFlows(token, run.el(token));
}

/** Conditional events re-evaluate after a command changed variables; they fire on a false-to-true change. */
function checkConditionals(run: Run): boolean {
  let fired = false;
  for (const space of run.s.spaces.values()) {
    if (!space.varsChanged || space.instance.state !== "ACTIVE") continue;
    space.varsChanged = false;
    for (const sub of [...space.subs.values()]) {
      if (sub.type !== "conditional" || !space.subs.has(sub.id)) continue;
      const e = space.executions.get(sub.executionId!);
      if (!e) continue;
      const el = run.el(e, sub.activityId);
      const now = run.evalCondition(e, el.event!.condition!);
      const was = sub.data.lastTrue === true;
      if (now !== was) {
        sub.data = { ...sub.data, lastTrue: now };
        run.s.putSub(space, sub, "update");
      }
      if (now && !was) {
        if ((el.type === "boundaryEvent" || el.type === "startEvent") && el.cancelActivity !== false)
          run.s.putSub(space, sub, "delete");
        run.schedule(() => fire(run, e, el));
        fired = true;
      }
    }
  }
  return fired;
}

/** Runs when the agenda is empty; true when it queued more work. */
export function afterQuiet(run: Run): boolean {
  const a = checkInclusiveJoins(run);
  const b = checkConditionals(run);
  return a || b;
}
