import type { Run } from "./run";

/** Cancels a running instance (and what it called): tasks cancelled, jobs and subscriptions dropped, history closed. */
export function cancelInstance(run: Run, instanceId: string, reason: string): void {
  const space = run.s.load(instanceId);
  if (!space) return;
  const inst = space.instance;
  if (inst.state === "COMPLETED" || inst.state === "CANCELLED") return;
  for (const e of [...space.executions.values()]) if (e.id !== inst.id) run.cancelExecution(e);
  const root = space.executions.get(inst.id);
  if (root) run.removeExecution(root, true);
  for (const j of [...space.jobs.values()]) run.s.putJob(space, j, "delete");
  inst.state = "CANCELLED";
  inst.endTime = run.now;
  inst.endReason = reason;
  run.s.touchInstance(space);
}
