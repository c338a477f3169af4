import { NotFoundError } from "../../errors";
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

/** Delivers a message to exactly one waiting subscription (optionally of the instance with that business key), else starts a process by it. */
export function correlateMessage(
  run: Run,
  name: string,
  opts: { businessKey?: string | null; variables?: Record<string, unknown> },
): { instanceId: string; started: boolean } {
  const subs = run.s.findSubscriptions("message", name);
  for (const sub of subs) {
    if (!sub.instanceId) continue;
    const space = run.s.load(sub.instanceId);
    if (space?.instance.state !== "ACTIVE") continue;
    if (opts.businessKey && space.instance.businessKey !== opts.businessKey) continue;
    run.schedule(() => triggerSubscription(run, sub, opts.variables));
    return { instanceId: sub.instanceId, started: false };
  }
  const start = subs.find((s) => !s.instanceId);
  if (start) {
    const inst = startProcess(run, run.s.definition(start.definitionId), {
      businessKey: opts.businessKey,
      variables: opts.variables,
      startEventId: start.activityId,
      channel: "MESSAGE",
    });
    return { instanceId: inst.id, started: true };
  }
  throw new NotFoundError(
    `No process instance or definition waits for message '${name}'${opts.businessKey ? ` with business key '${opts.businessKey}'` : ""}`,
  );
}
