import { ExpressionError } from "../errors";
import { DEFAULT_RETRIES, parseRetryCycle } from "../jobs/retry-cycle";
import { scheduleTimer } from "../jobs/timers";
import { isActivityType } from "../model/bpmn/parse";
import type { ElementModel, FlowModel } from "../model/bpmn/types";
import type { InstanceSpace } from "./session";
import type { ExecutionRecord, JobRecord, SubscriptionRecord } from "./state";
import { behaviourFor } from "./registry";
import { RunFlows } from "./run-flows";
import { createBoundaryEvents } from "./events/boundary";
import { miInnerCompleted, startMultiInstance } from "./multi-instance";
import { afterQuiet } from "./quiet";
import { cancelInstance } from "./instance-end";
import { childEnded } from "./elements/call-activity";
import { handlerDone, liftCompensation, recordCompensation } from "./events/compensation";
import { adhocLeaving, adhocOf } from "./elements/adhoc-sub-process";
import { failToolNow, toolDone, toolResultOf } from "./agent-loop";

/** Interprets one command: an agenda of small operations run until every token rests, over one Session. */
export class Run extends RunFlows {
  private agenda: Array<() => unknown> = [];
  schedule(op: () => unknown): void {
    this.agenda.push(op);
  }

  /** Runs queued operations (awaiting async delegates) until nothing is left, including deferred join and condition checks. */
  async drain(): Promise<void> {
    for (;;) {
      while (this.agenda.length) {
        const r = this.agenda.shift()!();
        if (r && typeof (r as Promise<unknown>).then === "function") await r;
      }
      if (!afterQuiet(this)) return;
    }
  }

  // ---- the shared lifecycle ----
  /** A token arrives at an element: history, incident for broken elements, async boundary, multi-instance, then the behaviour. */
  enter(token: ExecutionRecord, elementId: string): void | Promise<void> {
    // An operation queued before an interruption (a signal caught by an interrupting event subprocess, an error)
    // must not bring a cancelled token back: nothing after the interrupted activity is created.
    if (!this.alive(token)) return;
    const el = this.el(token, elementId);
    token.activityId = el.id;
    token.state = "active";
    this.mark(token);
    // The body of a multi-instance activity is recorded as such: its inner instances are the user tasks (or ...).
    this.actStart(token, el, el.mi && !this.isMiInner(token, el) ? "multiInstanceBody" : el.type);
    if (el.invalid) return this.incident(token, el, el.invalid);
    // An activity an agent called as a tool starts in a job of its own: its failure follows the job rules alone.
    const deferred = el.async || this.deferredAgent(token, el) || !!token.data.toolCall;
    if (deferred && token.data.asyncPassed !== el.id && !this.isMiInner(token, el))
      return this.asyncJob(token, el, this.agentOf(token, el));
    return this.proceed(token, el);
  }

  /** The AI agent a service task runs (named in the model, else attached by the platform), or undefined. */
  agentOf(token: ExecutionRecord, el: ElementModel): string | undefined {
    if (el.type !== "serviceTask") return undefined;
    if (el.service?.agent) return el.service.agent;
    if (el.service?.delegate && el.service.delegate.toLowerCase() !== "agent") return undefined;
    const inst = this.space(token).instance;
    return this.deps.attachedAgent?.(inst.tenantId, inst.definitionKey, el.id);
  }

  /** An agent step outside the start command waits for the job executor: no caller awaits a model. */
  private deferredAgent(token: ExecutionRecord, el: ElementModel): boolean {
    return !this.s.inlineAgents && this.agentOf(token, el) !== undefined;
  }

  /** Continues at an element once any async boundary is passed. */
  proceed(token: ExecutionRecord, el: ElementModel): void | Promise<void> {
    if (token.data.asyncPassed) {
      delete token.data.asyncPassed;
      this.mark(token);
    }
    if (el.mi && !this.isMiInner(token, el)) return startMultiInstance(this, token, el);
    if (isActivityType(el.type) && !this.isMiInner(token, el)) createBoundaryEvents(this, token, el);
    return behaviourFor(el.type).execute(this, token, el);
  }

  /** The token is done with its activity: close history and events, then multi-instance bookkeeping or outgoing flows. */
  leave(token: ExecutionRecord, flows?: FlowModel[]): void {
    const el = this.el(token);
    this.actEnd(token, "completed");
    this.removeEventsOf(token);
    // A multi-instance activity is recorded once per inner instance, not again when its body completes.
    const miHolder = !!el.mi && !this.isMiInner(token, el);
    if (el.boundaries?.length && !token.data.compensating && !miHolder) recordCompensation(this, token, el);
    if (this.isMiInner(token, el)) return miInnerCompleted(this, token, el);
    // A compensation handler has no outgoing flows of its own: it reports back to its thrower.
    if (token.data.compensating && !el.outgoing.length) {
      this.actEnd(token, "completed");
      handlerDone(this, token);
      return;
    }
    if (token.data.toolCall) toolDone(this, token, true, toolResultOf(token));
    const adhocDone = adhocLeaving(this, token);
    this.takeOutgoing(token, el, flows);
    adhocDone?.();
  }

  takeOutgoing(token: ExecutionRecord, el: ElementModel, flows?: FlowModel[]): void {
    const chosen = flows ?? this.chooseFlows(token, el);
    if (!Array.isArray(chosen)) {
      // A JavaScript condition runs in the script pool: the token moves on in an agenda step once it has answered.
      chosen.catch(() => {}); // awaited by that step; this only keeps it from counting as unhandled meanwhile
      this.schedule(() => chosen.then((f) => (this.alive(token) ? this.takeOutgoing(token, el, f) : undefined)));
      return;
    }
    if (!chosen.length) return this.endToken(token);
    const parent = this.parent(token)!;
    this.schedule(() => this.enter(token, chosen[0].target));
    for (let i = 1; i < chosen.length; i++) {
      const t = this.newToken(parent);
      const target = chosen[i].target;
      this.schedule(() => this.enter(t, target));
    }
  }

  endToken(token: ExecutionRecord): void {
    const parent = this.parent(token);
    this.removeExecution(token);
    if (parent) this.checkScopeDone(parent);
  }

  checkScopeDone(scope: ExecutionRecord): void {
    if (!this.alive(scope) || this.children(scope).length) return;
    // An empty ad-hoc subprocess waits for the caller's next activity, its completion condition or its explicit completion.
    if (adhocOf(this, scope)) return;
    this.completeScope(scope);
  }

  /** A scope with no token left completes: the instance ends, or the subprocess' holder moves on. */
  completeScope(scope: ExecutionRecord): void {
    const holder = this.parent(scope);
    if (!holder) {
      this.schedule(() => this.endInstance(this.space(scope), "completed"));
      return;
    }
    liftCompensation(this, scope);
    this.removeExecution(scope);
    this.leave(holder);
  }

  endInstance(space: InstanceSpace, reason: "completed" | "terminated"): void {
    const inst = space.instance;
    if (inst.state === "COMPLETED" || inst.state === "CANCELLED") return;
    const root = space.executions.get(inst.id);
    const rootVars = root ? this.allVars(root) : {};
    for (const e of [...space.executions.values()]) if (e.id !== inst.id) this.cancelExecution(e, true);
    if (root) this.removeExecution(root, true);
    inst.state = "COMPLETED";
    inst.endTime = this.now;
    inst.endReason = reason;
    this.s.touchInstance(space);
    if (inst.parentInstanceId && inst.parentExecutionId) {
      const parentId = inst.parentInstanceId,
        execId = inst.parentExecutionId;
      this.schedule(() => childEnded(this, parentId, execId, rootVars));
    }
  }

  /** Removes an execution and its event subscriptions and jobs; the root keeps its variables for history. */
  removeExecution(e: ExecutionRecord, keepVars = false): void {
    const space = this.space(e);
    for (const c of this.children(e)) this.removeExecution(c);
    this.removeEventsOf(e, true);
    if (keepVars) space.vars.delete(e.id);
    this.s.putExecution(space, e, "delete");
  }

  /** Interrupts an execution and everything below it: open tasks cancelled, called instances cancelled, history closed. */
  cancelExecution(e: ExecutionRecord, silentHistory = false): void {
    if (!this.alive(e)) return;
    const space = this.space(e);
    for (const c of this.children(e)) this.cancelExecution(c, silentHistory);
    if (e.kind === "token") {
      // An activity an agent called, interrupted (a boundary event, the subprocess ending): the model hears of it.
      if (e.data.toolCall) toolDone(this, e, false, { error: "the activity was interrupted before it finished" });
      this.actEnd(e, "cancelled");
      for (const t of [...space.tasks.values()])
        if (t.executionId === e.id) {
          t.state = "CANCELLED";
          t.completedAt = this.now;
          this.s.putTask(space, t, "update");
        }
      const child = (e.data as { childInstanceId?: string }).childInstanceId;
      if (child) cancelInstance(this, child, "parent activity cancelled");
    }
    this.removeExecution(e);
  }

  removeEventsOf(e: ExecutionRecord, includeIncidents = false): void {
    const space = this.space(e);
    for (const s of [...space.subs.values()]) if (s.executionId === e.id) this.s.putSub(space, s, "delete");
    for (const j of [...space.jobs.values()])
      if (j.executionId === e.id && (includeIncidents || j.kind !== "incident")) this.s.putJob(space, j, "delete");
  }

  // ---- waits ----
  subscribe(
    e: ExecutionRecord,
    activityId: string,
    type: SubscriptionRecord["type"],
    name: string,
    data: SubscriptionRecord["data"] = {},
  ): SubscriptionRecord {
    const space = this.space(e);
    const sub: SubscriptionRecord = {
      id: this.deps.newId(),
      tenantId: e.tenantId,
      instanceId: e.instanceId,
      executionId: e.id,
      definitionId: space.instance.definitionId,
      activityId,
      type,
      name,
      data,
      createdAt: this.now,
    };
    this.s.putSub(space, sub, "insert");
    return sub;
  }

  newJob(
    e: ExecutionRecord,
    el: ElementModel,
    kind: JobRecord["kind"],
    dueAt: number,
    data: JobRecord["data"] = {},
  ): JobRecord {
    const space = this.space(e);
    const policy = parseRetryCycle(el.retryCycle);
    const job: JobRecord = {
      id: this.deps.newId(),
      tenantId: e.tenantId,
      instanceId: e.instanceId,
      executionId: e.id,
      definitionId: space.instance.definitionId,
      activityId: el.id,
      kind,
      state: "EXECUTABLE",
      dueAt,
      retries: el.retryCycle ? policy.attempts : DEFAULT_RETRIES,
      exception: null,
      lockOwner: null,
      lockExpiresAt: null,
      data: { ...data, retryCycle: el.retryCycle },
      createdAt: this.now,
    };
    this.s.putJob(space, job, "insert");
    return job;
  }

  /** Schedules a timer job for a timer event waiting on execution `e`. */
  timer(e: ExecutionRecord, el: ElementModel): JobRecord {
    const t = el.event!.timer!;
    const value = String(this.evalValue(e, t.expr) ?? "");
    const sched = scheduleTimer(t.type, value, this.now);
    if ("error" in sched) throw new ExpressionError(`timer '${el.id}': ${sched.error}`);
    return this.newJob(e, el, "timer", sched.dueAt, sched.repeat ? { repeat: sched.repeat } : {});
  }

  /** An async continuation; one in front of an agent step names the agent (the failed-jobs routes refuse it). */
  asyncJob(token: ExecutionRecord, el: ElementModel, agent?: string): void {
    const toolCall = token.data.toolCall;
    this.newJob(token, el, "async", this.now, { ...(agent ? { agent } : {}), ...(toolCall ? { toolCall } : {}) });
  }

  /** Parks the token at the element with a dead-letter job: loud, visible in the monitor, retryable once fixed. */
  incident(token: ExecutionRecord, el: ElementModel, message: string): void {
    // An activity an agent called as a tool: the model is told instead (it may try another tool).
    if (token.data.toolCall) return void failToolNow(this, token, message);
    const job = this.newJob(token, el, "incident", this.now);
    job.state = "DEADLETTER";
    job.retries = 0;
    job.exception = message;
    this.deps.logger.warn(`incident at ${el.id}: ${message}`, { instanceId: token.instanceId });
  }
}
