import { BpmnDeployError } from "../../errors";
import { compileExpression, compileFeelScript, compileValue, ExpressionLimitError } from "../../expressions";
import { ModelLimitError } from "../model-limits";
import { checkScopes } from "./scopes";
import { conditionLanguage, readScript } from "./scripts";
import {
  DeferredProblem,
  readAdhoc,
  readCall,
  readEvent,
  readMultiInstance,
  readService,
  readUserTask,
  type Unresolved,
} from "./element-details";
import type { Extensions, Moddle } from "./extensions";
import { readToolDeclaration } from "./agent-tools";
import type { ElementModel, FlowModel, ProcessModel } from "./types";

import { CONTAINERS, ACTIVITY_TYPES, SUPPORTED, IGNORED, REFUSED } from "./element-kinds";

const local = (t: string) => t.replace(/^bpmn:/, "").replace(/^./, (c) => c.toLowerCase());

export class ProcessReader {
  readonly model: ProcessModel;
  readonly warnings: string[] = [];
  private anonymous = 0;
  constructor(
    private proc: Moddle,
    private ext: Extensions,
    private unresolved: Unresolved,
  ) {
    this.model = {
      id: proc.id,
      name: proc.name ?? proc.id,
      isExecutable: proc.isExecutable !== false,
      elements: {},
      flows: {},
      starts: [],
      eventSubprocesses: [],
      startFormKey: null,
      messageStarts: [],
      signalStarts: [],
      timerStarts: [],
      diagram: null,
    };
  }

  read(): ProcessModel {
    this.readScope(this.proc, this.proc.id);
    this.readAssociations(this.proc);
    for (const f of Object.values(this.model.flows)) {
      const s = this.model.elements[f.source],
        t = this.model.elements[f.target];
      if (!s || !t)
        throw new BpmnDeployError(`Sequence flow '${f.id}' connects unknown element '${!s ? f.source : f.target}'`);
      s.outgoing.push(f.id);
      t.incoming.push(f.id);
    }
    for (const el of Object.values(this.model.elements)) this.check(el);
    checkScopes(this.model);
    return this.model;
  }

  private readScope(container: Moddle, scopeId: string): { starts: string[]; eventSubprocesses: string[] } {
    const starts: string[] = [],
      eventSubs: string[] = [];
    for (const fe of container.flowElements ?? []) {
      const type = local(fe.$type);
      // Hand-written models (Flowable's tests among them) leave flows and even subprocesses without ids.
      if (!fe.id) fe.id = `${type}_${++this.anonymous}`;
      if (type === "sequenceFlow") {
        const c = fe.conditionExpression;
        const cond = c?.body !== undefined && String(c.body).trim() !== "" ? String(c.body).trim() : undefined;
        if (!fe.sourceRef || !fe.targetRef)
          throw new BpmnDeployError(`Sequence flow '${fe.id}' has no source or target`);
        const flow: FlowModel = {
          id: fe.id,
          source: fe.sourceRef.id,
          target: fe.targetRef.id,
          name: fe.name,
          condition: cond,
        };
        if (cond && c?.language)
          flow.language = conditionLanguage(fe.id, String(c.language), (m) => this.defer(flow, m));
        this.model.flows[fe.id] = flow;
        continue;
      }
      if (IGNORED.has(type)) continue;
      if (REFUSED[type]) throw new BpmnDeployError(`Element '${fe.id}' (${type}): ${REFUSED[type]}`);
      if (!SUPPORTED.has(type)) throw new BpmnDeployError(`Element '${fe.id}' of type ${type} is not supported`);
      const el = this.readElement(fe, type, scopeId);
      this.model.elements[el.id] = el;
      if (type === "startEvent") starts.push(el.id);
      if (CONTAINERS.has(type)) {
        const inner = this.readScope(fe, fe.id);
        el.starts = inner.starts;
        el.eventSubprocesses = inner.eventSubprocesses;
        if (el.triggeredByEvent) eventSubs.push(el.id);
      }
    }
    if (scopeId === this.proc.id) {
      this.model.eventSubprocesses = eventSubs;
      this.model.starts = starts.filter((s) => this.model.elements[s].event?.kind === "none");
      for (const s of starts) {
        const e = this.model.elements[s].event!;
        if (e.kind === "message" && e.name) this.model.messageStarts.push({ elementId: s, name: e.name });
        if (e.kind === "signal" && e.name) this.model.signalStarts.push({ elementId: s, name: e.name });
        if (e.kind === "timer" && e.timer) this.model.timerStarts.push({ elementId: s, timer: e.timer });
      }
      const noneStart = this.model.starts[0];
      this.model.startFormKey = noneStart ? (this.model.elements[noneStart].formKey ?? null) : null;
    }
    return { starts, eventSubprocesses: eventSubs };
  }

  /** Compensate boundary events point at their handler through an association (not a sequence flow). */
  private readAssociations(container: Moddle): void {
    for (const a of container.artifacts ?? []) {
      if (a.$type !== "bpmn:Association" || !a.sourceRef?.id || !a.targetRef?.id) continue;
      const src = this.model.elements[a.sourceRef.id];
      if (src?.type === "boundaryEvent" && src.event?.kind === "compensate") src.compensationHandler = a.targetRef.id;
    }
    for (const fe of container.flowElements ?? []) if (CONTAINERS.has(local(fe.$type))) this.readAssociations(fe);
  }

  /** Records a problem that does not block the deploy: a warning now, an incident (element) or error (flow) at run time. */
  private defer(target: ElementModel | FlowModel, message: string): void {
    if (target.invalid) return;
    target.invalid = message;
    this.warnings.push(`Process '${this.model.id}': '${target.id}': ${message}; it fails when reached`);
  }

  private readElement(fe: Moddle, type: string, scope: string): ElementModel {
    const el: ElementModel = { id: fe.id, type, name: fe.name ?? "", scope, incoming: [], outgoing: [] };
    try {
      this.readDetails(fe, type, el);
    } catch (e) {
      if (!(e instanceof DeferredProblem)) throw e;
      this.defer(el, e.message);
    }
    return el;
  }

  private readDetails(fe: Moddle, type: string, el: ElementModel): void {
    const ext = this.ext;
    if (fe.default) el.default = fe.default.id;
    if (type === "boundaryEvent") {
      if (!fe.attachedToRef) throw new BpmnDeployError(`Boundary event '${fe.id}' is not attached to an activity`);
      el.attachedTo = fe.attachedToRef.id;
      el.cancelActivity = fe.cancelActivity !== false;
    }
    if (type.endsWith("Event")) el.event = readEvent(fe, ext, this.unresolved);
    if (el.event?.kind === "timer" && !el.event.timer)
      throw new DeferredProblem(`timer event has no timeDate, timeDuration or timeCycle`);
    if (el.event?.kind === "conditional" && !el.event.condition)
      throw new DeferredProblem(`conditional event has no condition`);
    if (type === "startEvent") {
      el.cancelActivity = fe.isInterrupting !== false;
      el.formKey = ext.attr(fe, "formKey");
      el.initiator = ext.attr(fe, "initiator");
    }
    if (type === "endEvent" && el.event?.kind === "terminate")
      el.terminateAll = ext.flag(fe.eventDefinitions[0], "terminateAll");
    if (ACTIVITY_TYPES.has(type) || type.endsWith("Event") || type.endsWith("Gateway")) {
      el.async = ext.flag(fe, "async") || ext.flag(fe, "asyncBefore");
      const cycle = ext.attr(fe, "failedJobRetryTimeCycle") ?? ext.children(fe, "failedJobRetryTimeCycle")[0]?.$body;
      if (cycle) el.retryCycle = String(cycle).trim();
    }
    if (ACTIVITY_TYPES.has(type)) el.mi = readMultiInstance(fe, ext, this.unresolved);
    if (type === "userTask") el.userTask = readUserTask(fe, ext);
    if (type === "subProcess") el.triggeredByEvent = fe.triggeredByEvent === true;
    if (type === "adHocSubProcess") el.adhoc = readAdhoc(fe, ext);
    if (fe.isForCompensation === true) el.forCompensation = true;
    if (el.event?.kind === "compensate" && fe.eventDefinitions?.[0]?.activityRef?.id)
      el.compensateActivity = fe.eventDefinitions[0].activityRef.id;
    if (type === "callActivity") el.call = readCall(fe, ext);
    if (type === "scriptTask") el.script = readScript(fe, ext);
    if (type === "serviceTask" || type === "sendTask" || type === "businessRuleTask") {
      el.service = readService(fe, ext);
      if (type === "businessRuleTask" || el.service.delegate === "dmn") {
        el.type = "businessRuleTask";
        el.rule = {
          decisionKey:
            ext.attr(fe, "decisionTableReferenceKey") ??
            ext.attr(fe, "decisionRef") ??
            el.service.fields.decisionTableReferenceKey,
          resultVariable: ext.attr(fe, "resultVariable") ?? el.service.resultVariable,
        };
        if (!el.rule.decisionKey)
          throw new DeferredProblem(
            `Business rule task '${fe.id}' names no decision (flowable:decisionTableReferenceKey or camunda:decisionRef)`,
          );
      }
    }
    if (ACTIVITY_TYPES.has(type)) readToolDeclaration(fe, ext, el);
    if (type === "receiveTask" && fe.messageRef)
      el.event = { kind: "message", name: fe.messageRef.name ?? fe.messageRef.id };
    // Listeners are Java/script hooks of the source engine: say plainly that they will not run.
    for (const kind of ["executionListener", "taskListener"]) {
      if (ext.children(fe, kind).length)
        this.warnings.push(
          `Process '${this.model.id}': ${type} '${fe.id}' declares ${kind}s, which this engine does not run`,
        );
    }
    if (ext.flag(fe, "asyncAfter"))
      this.warnings.push(
        `Process '${this.model.id}': ${type} '${fe.id}' sets asyncAfter, which runs as a synchronous continuation here`,
      );
  }

  /** Cross-element checks and eager compilation, so bad expressions fail the deploy rather than a running instance. */
  private check(el: ElementModel): void {
    const m = this.model;
    const where = `'${el.id}'`;
    const compile = (
      src: string | undefined,
      what: string,
      fn: (s: string) => unknown = compileExpression,
      target: ElementModel | FlowModel = el,
    ) => {
      if (!src || target.invalid) return;
      try {
        fn(src);
      } catch (e) {
        // An expression over a size limit is refused at deploy, never left to fail every start.
        if (e instanceof ExpressionLimitError) throw new ModelLimitError(`${what} of ${where}: ${e.message}`);
        // Method calls would need the Java beans the model was written for: refusing is clearer than failing later.
        if (/method calls|function and method/.test((e as Error).message) && m.isExecutable)
          throw new BpmnDeployError(`${what} of ${where}: ${(e as Error).message}`);
        this.defer(target, `${what}: ${(e as Error).message}`);
      }
    };
    if (el.type === "boundaryEvent") {
      const host = m.elements[el.attachedTo!];
      if (!host)
        throw new BpmnDeployError(`Boundary event ${where} is attached to unknown activity '${el.attachedTo}'`);
      (host.boundaries ??= []).push(el.id);
    }
    if (el.event?.kind === "compensate" && el.type === "boundaryEvent" && !el.compensationHandler)
      this.warnings.push(`Process '${m.id}': compensation boundary '${el.id}' has no associated handler`);
    if (el.type === "intermediateCatchEvent" && el.event?.kind === "none")
      this.defer(el, "intermediate catch event has no event definition");
    // An anonymous message/signal catch can still be triggered by name: its own id stands in.
    if (
      (el.event?.kind === "message" || el.event?.kind === "signal") &&
      !el.event.name &&
      el.type !== "endEvent" &&
      el.type !== "intermediateThrowEvent"
    )
      el.event.name = el.id;
    if (el.event?.condition) compile(el.event.condition, "condition");
    if (el.event?.timer) compile(el.event.timer.expr, "timer", compileValue);
    for (const f of el.outgoing)
      if (m.flows[f].language !== "javascript")
        compile(m.flows[f].condition, `condition of flow '${f}' leaving`, compileExpression, m.flows[f]);
    if (el.adhoc) compile(el.adhoc.completionCondition, "completionCondition");
    if (el.mi) {
      compile(el.mi.completionCondition, "completionCondition");
      compile(el.mi.loopCardinality, "loopCardinality", compileValue);
    }
    // JavaScript is checked when it runs, in the sandbox: the model reader has no interpreter for it.
    if (el.script?.format === "feel") compile(el.script.body, "script", compileFeelScript);
    if (el.script?.format === "juel") compile(el.script.body, "script", compileValue);
    if (el.service?.expression) compile(el.service.expression, "expression", compileValue);
    if (el.default && !el.outgoing.includes(el.default))
      throw new BpmnDeployError(`Default flow '${el.default}' of ${where} does not leave it`);
    if (el.type === "eventBasedGateway") {
      for (const f of el.outgoing) {
        const t = m.elements[m.flows[f].target];
        if (!(t.type === "intermediateCatchEvent" || t.type === "receiveTask"))
          throw new BpmnDeployError(
            `Event-based gateway ${where} leads to '${t.id}', which is not a catch event or receive task`,
          );
      }
    }
    if (el.type === "intermediateCatchEvent" && el.event?.kind === "link" && !el.event.name)
      this.defer(el, "link catch event has no name");
    if (el.type === "intermediateThrowEvent" && el.event?.kind === "link") {
      const target = Object.values(m.elements).find(
        (x) =>
          x.type === "intermediateCatchEvent" &&
          x.event?.kind === "link" &&
          x.event.name === el.event!.name &&
          x.scope === el.scope,
      );
      if (!target) this.defer(el, `link '${el.event.name}' has no catch event in the same scope`);
    }
  }
}
