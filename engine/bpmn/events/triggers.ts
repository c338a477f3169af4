import { UnprocessableError } from "../../errors";
import type { ElementModel } from "../../model/bpmn/types";
import type { Run } from "../run";
import type { ExecutionRecord, JobRecord, SubscriptionRecord } from "../state";
import { triggerBoundary } from "./boundary";
import { triggerEventSubprocess } from "./event-subprocess";
import { nextRepeat } from "../../jobs/timers";

/** A catch event, receive task or event-gateway branch fired for the token waiting on it. */
function catchFired(run: Run, token: ExecutionRecord, target: ElementModel): void {
  const at = run.el(token);
  if (at.type === "eventBasedGateway") {
    // The first event wins: the other branches' subscriptions and timers go with the gateway.
    run.removeEventsOf(token);
    run.actEnd(token, "completed");
    token.activityId = target.id;
    run.mark(token);
    run.actStart(token, target);
  }
  run.leave(token);
}

/** Fires whatever waits on element `el` at execution `e` (boundary, event subprocess start, catch event). */
export function fire(run: Run, e: ExecutionRecord, el: ElementModel, repeat?: { left: number; spec: string }): void {
  if (el.type === "boundaryEvent") return triggerBoundary(run, e, el, repeat);
  if (el.type === "startEvent") return triggerEventSubprocess(run, e, el, repeat);
  if (el.type === "intermediateCatchEvent" || el.type === "receiveTask") return catchFired(run, e, el);
  throw new UnprocessableError(`element '${el.id}' (${el.type}) cannot be triggered`);
}

/** Delivers a message/signal/condition to its subscription of a running instance (variables go to the instance first). */
export function triggerSubscription(run: Run, sub: SubscriptionRecord, variables?: Record<string, unknown>): void {
  const space = run.s.require(sub.instanceId!);
  const e = space.executions.get(sub.executionId!);
  if (!e) return;
  if (variables) for (const [k, v] of Object.entries(variables)) run.setVar(e, k, v);
  const el = run.el(e, sub.activityId);
  // A boundary/event-subprocess subscription stays for non-interrupting repeats; catch events consume theirs on leave.
  if (el.type === "boundaryEvent" || el.type === "startEvent") {
    if (el.cancelActivity !== false) run.s.putSub(space, sub, "delete");
  }
  fire(run, e, el);
}

/** Runs a due timer job of a running instance. */
export function fireTimerJob(run: Run, job: JobRecord): void {
  const space = run.s.require(job.instanceId!);
  run.s.putJob(space, job, "delete");
  const e = space.executions.get(job.executionId!);
  if (!e) return;
  const el = run.el(e, job.activityId);
  fire(run, e, el, job.data.repeat);
}

export { nextRepeat };
