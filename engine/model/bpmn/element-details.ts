import { BpmnDeployError } from "../../errors";
import type { Extensions, Moddle } from "./extensions";
import type { AdhocDef, ElementModel, EventDef, Mapping, MultiInstanceDef, ServiceDef, UserTaskDef } from "./types";

/** References moddle could not resolve (Flowable lets errorRef carry the code itself), keyed by element then property. */
export type Unresolved = WeakMap<object, Record<string, string>>;

/** A problem that only matters when the element runs: the model deploys with a warning and the element raises an incident. */
export class DeferredProblem extends BpmnDeployError {}

const body = (e: Moddle): string | undefined =>
  e?.body !== undefined && String(e.body).trim() !== "" ? String(e.body).trim() : undefined;

function refName(
  def: Moddle,
  prop: string,
  field: "name" | "errorCode" | "escalationCode",
  unresolved: Unresolved,
): string | undefined {
  const ref = def[prop];
  if (ref) return ref[field] ?? ref.name ?? ref.id;
  return unresolved.get(def)?.[prop];
}

/** Reads the single event definition of an event; several at once (multiple/parallel-multiple) are refused. */
export function readEvent(el: Moddle, ext: Extensions, unresolved: Unresolved): EventDef {
  const defs: Moddle[] = el.eventDefinitions ?? [];
  if (defs.length > 1)
    throw new BpmnDeployError(
      `Event '${el.id}' has ${defs.length} event definitions: multiple and parallel-multiple events are not supported`,
    );
  const d = defs[0];
  if (!d) return { kind: "none" };
  switch (d.$type) {
    case "bpmn:MessageEventDefinition":
      return {
        kind: "message",
        name: refName(d, "messageRef", "name", unresolved) ?? ext.attr(d, "messageExpression"),
      };
    case "bpmn:SignalEventDefinition":
      return { kind: "signal", name: refName(d, "signalRef", "name", unresolved) ?? ext.attr(d, "signalExpression") };
    case "bpmn:ErrorEventDefinition":
      return { kind: "error", code: refName(d, "errorRef", "errorCode", unresolved) };
    case "bpmn:EscalationEventDefinition":
      return { kind: "escalation", code: refName(d, "escalationRef", "escalationCode", unresolved) };
    case "bpmn:TerminateEventDefinition":
      return { kind: "terminate" };
    case "bpmn:LinkEventDefinition":
      return { kind: "link", name: d.name ?? el.name };
    case "bpmn:CompensateEventDefinition":
      return { kind: "compensate" };
    case "bpmn:CancelEventDefinition":
      return { kind: "cancel" };
    case "bpmn:ConditionalEventDefinition": {
      const c = body(d.condition);
      return { kind: "conditional", condition: c };
    }
    case "bpmn:TimerEventDefinition": {
      const date = body(d.timeDate),
        dur = body(d.timeDuration),
        cyc = body(d.timeCycle);
      const timer = date
        ? { type: "date" as const, expr: date }
        : dur
          ? { type: "duration" as const, expr: dur }
          : cyc
            ? { type: "cycle" as const, expr: cyc }
            : null;
      return { kind: "timer", timer: timer ?? undefined };
    }
    default:
      throw new BpmnDeployError(
        `Event '${el.id}' uses ${String(d.$type).replace("bpmn:", "")}, which is not supported`,
      );
  }
}

/**
 * Multi-instance settings from the Flowable/Camunda attributes or the standard elements. `loopDataInputRef` and
 * `loopDataOutputRef` name a data input/output or property (its name, else its id) or, unresolved, a process variable.
 */
export function readMultiInstance(el: Moddle, ext: Extensions, unresolved?: Unresolved): MultiInstanceDef | undefined {
  const lc = el.loopCharacteristics;
  if (!lc) return undefined;
  if (lc.$type === "bpmn:StandardLoopCharacteristics")
    throw new DeferredProblem(`Activity '${el.id}' uses a standard loop, which is not supported (use multi-instance)`);
  const raw = unresolved?.get(lc) ?? {};
  const ref = (prop: string): string | undefined => lc[prop]?.name ?? lc[prop]?.id ?? raw[prop];
  const mi: MultiInstanceDef = {
    sequential: lc.isSequential === true,
    collection: ext.attr(lc, "collection") ?? ref("loopDataInputRef"),
    elementVariable: ext.attr(lc, "elementVariable") ?? lc.inputDataItem?.name ?? lc.inputDataItem?.id,
    outputCollection: ref("loopDataOutputRef"),
    outputElementVariable: lc.outputDataItem?.name ?? lc.outputDataItem?.id,
    loopCardinality: body(lc.loopCardinality),
    completionCondition: body(lc.completionCondition),
  };
  if (!mi.collection && !mi.loopCardinality)
    throw new DeferredProblem(`Multi-instance activity '${el.id}' needs a collection or a loopCardinality`);
  return mi;
}

/**
 * Refused at deploy rather than failing when reached: a subprocess (or transaction) with neither a start event nor an
 * inner element without incoming flow has nothing to start.
 */
export function requireSubprocessStart(el: ElementModel, starts: string[], implicit: string[]): void {
  if (starts.length || implicit.length || el.triggeredByEvent || el.type === "adHocSubProcess") return;
  const what = el.type === "transaction" ? "Transaction" : "Subprocess";
  throw new BpmnDeployError(
    `${what} '${el.id}' has no start event: an embedded subprocess needs a none start event, or an element without incoming flow to start at`,
  );
}

/** Ordering and completion of an ad-hoc subprocess; its enabled activities are filled once flows are linked. */
export function readAdhoc(el: Moddle, ext: Extensions): AdhocDef {
  const agent = ext.attr(el, "agent");
  return {
    ...(agent ? { agent } : {}),
    sequential: String(el.ordering ?? "Parallel") === "Sequential",
    completionCondition: body(el.completionCondition),
    cancelRemaining: el.cancelRemainingInstances !== false,
    enabled: [],
  };
}

function potentialOwners(el: Moddle): { users: string[]; groups: string[] } {
  const users: string[] = [],
    groups: string[] = [];
  for (const r of el.resources ?? []) {
    const expr = body(r.resourceAssignmentExpression?.expression);
    if (!expr) continue;
    for (const part of expr
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = /^(user|group)\((.*)\)$/.exec(part);
      if (m) (m[1] === "user" ? users : groups).push(m[2].trim());
      else if (r.$type === "bpmn:HumanPerformer") users.push(part);
      else groups.push(part);
    }
  }
  return { users, groups };
}

/** Assignment, form and scheduling attributes of a user task. */
export function readUserTask(el: Moddle, ext: Extensions): UserTaskDef {
  const owners = potentialOwners(el);
  const join = (a: string | undefined, more: string[]) => [a, ...more].filter(Boolean).join(",") || undefined;
  const human = (el.resources ?? []).some((r: Moddle) => r.$type === "bpmn:HumanPerformer");
  return {
    assignee: ext.attr(el, "assignee") ?? (human ? owners.users.shift() : undefined),
    candidateUsers: join(ext.attr(el, "candidateUsers"), human ? [] : owners.users),
    candidateGroups: join(ext.attr(el, "candidateGroups"), owners.groups),
    formKey: ext.attr(el, "formKey"),
    dueDate: ext.attr(el, "dueDate"),
    priority: ext.attr(el, "priority"),
  };
}

function fieldValue(ext: Extensions, f: Moddle): string | undefined {
  return (
    f.stringValue ??
    f.expression ??
    ext.childText(f, "string") ??
    ext.childText(f, "expression") ??
    (f.$body ? String(f.$body).trim() : undefined)
  );
}

/** Implementation of a service-like task: a registered delegate or an expression, and its fields. */
export function readService(el: Moddle, ext: Extensions): ServiceDef {
  const fields: Record<string, string> = {};
  for (const f of ext.children(el, "field")) if (f.name) fields[f.name] = fieldValue(ext, f) ?? "";
  for (const io of ext.children(el, "inputOutput"))
    for (const p of io.$children ?? [])
      if (ext.isNamed(p, "inputParameter") && p.name)
        fields[p.name] = p.$body !== undefined ? String(p.$body).trim() : "";
  const strip = (s: string) => s.replace(/^[$#]\{\s*/, "").replace(/\s*\}$/, "");
  const delegateExpr = ext.attr(el, "delegateExpression");
  const cls = ext.attr(el, "class");
  const type = ext.attr(el, "type") ?? (el.$attrs?.type ? String(el.$attrs.type) : undefined);
  // Camunda Modeler's external tasks run unchanged: type="external" with a topic names the robot.
  const robot = ext.attr(el, "robot") ?? (type === "external" ? ext.attr(el, "topic") : undefined);
  if (type === "external" && !robot) throw new DeferredProblem(`External task '${el.id}' names no camunda:topic`);
  if (robot) {
    // Only a literal priority is read (an expression would need the instance's variables at job creation).
    const priority = ext.attr(el, "taskPriority");
    const taskPriority = priority !== undefined && /^-?\d{1,15}$/.test(priority.trim()) ? Number(priority) : undefined;
    return { robot, fields, resultVariable: undefined, ...(taskPriority !== undefined ? { taskPriority } : {}) };
  }
  const agent = ext.attr(el, "agent");
  return {
    delegate: type ?? (delegateExpr ? strip(delegateExpr) : undefined) ?? cls ?? (agent ? "agent" : undefined),
    agent,
    expression: ext.attr(el, "expression"),
    fields,
    resultVariable: ext.attr(el, "resultVariable") ?? ext.attr(el, "resultVariableName"),
  };
}

function mappings(ext: Extensions, el: Moddle, local: "in" | "out"): Mapping[] {
  return ext
    .children(el, local)
    .map((m: Moddle) => ({
      source: m.source,
      sourceExpression: m.sourceExpression,
      target: m.target,
      all: m.variables === "all",
    }))
    .filter((m: Mapping) => m.all || m.source || m.sourceExpression);
}

/** Called element and variable mappings of a call activity. */
export function readCall(el: Moddle, ext: Extensions): ElementModel["call"] {
  const called = el.calledElement ?? ext.attr(el, "calledElement");
  if (!called) throw new DeferredProblem(`Call activity '${el.id}' has no calledElement`);
  const inputs = mappings(ext, el, "in");
  const outputs = mappings(ext, el, "out");
  if (ext.flag(el, "inheritVariables")) inputs.unshift({ all: true });
  const bk = ext.children(el, "in").find((m: Moddle) => m.businessKey)?.businessKey ?? ext.attr(el, "businessKey");
  return { calledElement: String(called), inputs, outputs, businessKey: bk };
}
