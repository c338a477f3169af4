import { ExpressionError } from "../errors";
import type { ElementModel } from "../model/bpmn/types";
import type { Run } from "./run";
import type { ExecutionRecord } from "./state";
import { createBoundaryEvents } from "./events/boundary";

function resolveItems(run: Run, holder: ExecutionRecord, el: ElementModel): { n: number; items?: unknown[] } {
  const mi = el.mi!;
  if (mi.collection) {
    const src = mi.collection.trim();
    // A bare name is a variable (Flowable/Camunda); anything else is an expression.
    const v = /^[A-Za-z_][\w]*$/.test(src) ? run.getVar(holder, src) : run.evalValue(holder, src);
    const items =
      typeof v === "string"
        ? (() => {
            try {
              return JSON.parse(v);
            } catch {
              return v.split(",").map((s) => s.trim());
            }
          })()
        : v;
    if (!Array.isArray(items))
      throw new ExpressionError(`multi-instance collection '${src}' of '${el.id}' is not a list`);
    return { n: items.length, items };
  }
  const n = Number(run.evalValue(holder, mi.loopCardinality!));
  if (!Number.isInteger(n) || n < 0)
    throw new ExpressionError(`loopCardinality of '${el.id}' is not a non-negative integer`);
  return { n };
}

function spawn(run: Run, body: ExecutionRecord, el: ElementModel, index: number): void {
  const inner = run.newToken(body);
  run.setLocal(inner, "loopCounter", index);
  const items = body.data.items;
  if (el.mi!.elementVariable && items) run.setLocal(inner, el.mi!.elementVariable, items[index]);
  // Local to the instance, so what the activity writes under that name is this instance's output.
  if (el.mi!.outputElementVariable) run.setLocal(inner, el.mi!.outputElementVariable, null);
  run.schedule(() => run.enter(inner, el.id));
}

/** The token reaches a multi-instance activity: a body execution holds the counters, one inner token per instance. */
export function startMultiInstance(run: Run, holder: ExecutionRecord, el: ElementModel): void {
  const { n, items } = resolveItems(run, holder, el);
  createBoundaryEvents(run, holder, el);
  if (n === 0) {
    if (el.mi!.outputCollection && el.mi!.outputElementVariable) run.setVar(holder, el.mi!.outputCollection, []);
    run.leave(holder);
    return;
  }
  const body = run.newExecution(run.space(holder), holder.id, "mi", el.id);
  if (items) {
    body.data.items = items;
    run.mark(body);
  }
  run.setLocal(body, "nrOfInstances", n);
  run.setLocal(body, "nrOfCompletedInstances", 0);
  run.setLocal(body, "nrOfActiveInstances", el.mi!.sequential ? 1 : n);
  if (el.mi!.sequential) spawn(run, body, el, 0);
  else for (let i = 0; i < n; i++) spawn(run, body, el, i);
}

/** One instance finished: update counters, check the completion condition, start the next (sequential) or finish the body. */
export function miInnerCompleted(run: Run, inner: ExecutionRecord, el: ElementModel): void {
  const body = run.parent(inner)!;
  const holder = run.parent(body)!;
  const n = Number(run.getVar(body, "nrOfInstances"));
  const completed = Number(run.getVar(body, "nrOfCompletedInstances")) + 1;
  const active = Math.max(0, Number(run.getVar(body, "nrOfActiveInstances")) - 1);
  run.setLocal(body, "nrOfCompletedInstances", completed);
  run.setLocal(body, "nrOfActiveInstances", active);
  const { outputCollection, outputElementVariable } = el.mi!;
  if (outputCollection && outputElementVariable) {
    const outputs = body.data.outputs ?? new Array(n).fill(null);
    outputs[Number(run.getVar(inner, "loopCounter"))] = run.getVar(inner, outputElementVariable) ?? null;
    body.data.outputs = outputs;
    run.mark(body);
  }
  const done = completed >= n || (!!el.mi!.completionCondition && run.evalCondition(inner, el.mi!.completionCondition));
  run.removeExecution(inner);
  if (done) {
    for (const c of run.children(body)) run.cancelExecution(c);
    if (outputCollection && outputElementVariable) run.setVar(holder, outputCollection, body.data.outputs ?? []);
    run.removeExecution(body);
    run.leave(holder);
    return;
  }
  if (el.mi!.sequential) {
    run.setLocal(body, "nrOfActiveInstances", 1);
    spawn(run, body, el, completed);
  }
}
