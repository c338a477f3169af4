import { toolDone } from "../agent-loop";
import type { ElementModel } from "../../model/bpmn/types";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import { armEvent } from "./event-subscriptions";
import { nextRepeat } from "../../jobs/timers";
import { cancelInstance } from "../instance-end";

/** Arms the boundary events of an activity the token has just entered (errors and escalations are looked up when thrown). */
export function createBoundaryEvents(run: Run, token: ExecutionRecord, el: ElementModel): void {
  for (const id of el.boundaries ?? []) {
    const b = run.el(token, id);
    if (b.invalid) continue;
    if (b.event && ["timer", "message", "signal", "conditional"].includes(b.event.kind)) armEvent(run, token, b);
  }
}

/** Fires a boundary event of the activity `host` rests at: interrupting cancels the activity, otherwise a new token branches off. */
export function triggerBoundary(
  run: Run,
  host: ExecutionRecord,
  boundary: ElementModel,
  repeat?: { left: number; spec: string },
): void {
  if (boundary.cancelActivity !== false) {
    // An activity an agent called: the model hears that it was interrupted (the token goes on without the call).
    if (host.data.toolCall)
      toolDone(run, host, false, { error: `the activity was interrupted by '${boundary.name || boundary.id}'` });
    for (const c of run.children(host)) run.cancelExecution(c);
    cancelHostActivity(run, host);
    host.activityId = boundary.id;
    host.state = "active";
    run.mark(host);
    run.actStart(host, boundary);
    run.schedule(() => run.leave(host));
    return;
  }
  if (repeat) {
    const next = nextRepeat(repeat, run.now);
    if (next) run.newJob(host, boundary, "timer", next.dueAt, next.repeat ? { repeat: next.repeat } : {});
  }
  const branch = run.newToken(run.parent(host)!);
  branch.activityId = boundary.id;
  run.mark(branch);
  run.actStart(branch, boundary);
  run.schedule(() => run.leave(branch));
}

/** Ends what the host token was doing at its activity without removing the token itself. */
function cancelHostActivity(run: Run, host: ExecutionRecord): void {
  const space = run.space(host);
  run.actEnd(host, "cancelled");
  for (const t of [...space.tasks.values()])
    if (t.executionId === host.id) {
      t.state = "CANCELLED";
      t.completedAt = run.now;
      run.s.putTask(space, t, "update");
    }
  const child = (host.data as { childInstanceId?: string }).childInstanceId;
  if (child) {
    delete (host.data as { childInstanceId?: string }).childInstanceId;
    cancelInstance(run, child, "a boundary event interrupted the call activity");
  }
  run.removeEventsOf(host, true);
}
