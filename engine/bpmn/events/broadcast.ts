import { ConflictError, NotFoundError } from "../../errors";
import type { Run } from "../run";
import { startProcess } from "../instance-start";
import { triggerSubscription } from "./triggers";

/** Broadcasts a signal to every waiting subscription of the tenant and starts processes with that signal start event. */
export function throwSignal(run: Run, name: string, variables?: Record<string, unknown>): number {
  let count = 0;
  for (const sub of run.s.findSubscriptions("signal", name)) {
    if (sub.instanceId) {
      const space = run.s.load(sub.instanceId);
      if (space?.instance.state !== "ACTIVE") continue;
      run.schedule(() => triggerSubscription(run, sub, variables));
    } else {
      const def = run.s.definition(sub.definitionId);
      run.schedule(() => startProcess(run, def, { variables, startEventId: sub.activityId, channel: "SIGNAL" }));
    }
    count++;
  }
  return count;
}

export interface CorrelateOptions {
  businessKey?: string | null;
  /** instance variables the waiting instance must hold with these values */
  correlationKeys?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  /** deliver to every match instead of refusing when more than one matches */
  all?: boolean;
}
export interface Correlated {
  instanceId: string;
  started: boolean;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Delivers a message to the waiting subscription it matches (business key, correlation keys on the instance's
 * variables), else starts a process by its message start event. Nothing matching: 404; more than one and not `all`: 409.
 */
export function correlateMessage(run: Run, name: string, opts: CorrelateOptions): Correlated[] {
  const subs = run.s.findSubscriptions("message", name);
  const waiting = subs.filter((sub) => {
    if (!sub.instanceId) return false;
    const space = run.s.load(sub.instanceId);
    if (space?.instance.state !== "ACTIVE") return false;
    if (opts.businessKey && space.instance.businessKey !== opts.businessKey) return false;
    const root = space.executions.get(space.instance.id);
    return Object.entries(opts.correlationKeys ?? {}).every(([k, v]) => !!root && sameValue(run.getVar(root, k), v));
  });
  const starts = waiting.length || opts.correlationKeys ? [] : subs.filter((s) => !s.instanceId);
  const matches = waiting.length ? waiting : starts;
  const what = `message '${name}'${opts.businessKey ? ` with business key '${opts.businessKey}'` : ""}`;
  if (!matches.length) throw new NotFoundError(`No process instance or definition waits for ${what}`);
  if (matches.length > 1 && !opts.all)
    throw new ConflictError(`${matches.length} subscriptions match ${what}: set "all" to deliver it to each`);
  return matches.map((sub) => {
    if (sub.instanceId) {
      run.schedule(() => triggerSubscription(run, sub, opts.variables));
      return { instanceId: sub.instanceId, started: false };
    }
    const inst = startProcess(run, run.s.definition(sub.definitionId), {
      businessKey: opts.businessKey,
      variables: opts.variables,
      startEventId: sub.activityId,
      channel: "MESSAGE",
    });
    return { instanceId: inst.id, started: true };
  });
}
