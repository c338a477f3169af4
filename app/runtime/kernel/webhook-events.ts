import type { ChangeSet, InstanceRecord } from "../../../engine/bpmn";
import type { CaseChanges } from "../../../engine/cmmn";
import { instanceSummary, summaryRowOf } from "./instance-summary";
import { iso, toTask, type TaskRow } from "./rows";
import { taskView } from "./task-view";
import type { WrittenChange } from "./write-hooks";

/** The event types emitted today (docs/webhooks.md); the reserved ones are named there. */
export const WEBHOOK_EVENT_TYPES = [
  "process.instance.started",
  "process.instance.completed",
  "process.instance.cancelled",
  "task.created",
  "task.assigned",
  "task.completed",
  "job.dead_lettered",
  "case.completed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEvent {
  tenantId: string;
  type: WebhookEventType;
  /** The resource as the REST API shows it. */
  data: unknown;
}

const ended = (s: string) => s === "COMPLETED" || s === "CANCELLED";
const instanceData = (r: InstanceRecord) =>
  instanceSummary("BPMN", summaryRowOf(r), r.parentInstanceId, ended(r.state));

function ofProcessChange(tenantId: string, c: ChangeSet): WebhookEvent[] {
  const out: WebhookEvent[] = [];
  for (const [, x] of c.instances)
    if (x.op === "insert") out.push({ tenantId, type: "process.instance.started", data: instanceData(x.row) });
  for (const t of c.createdTasks)
    if (t.state === "OPEN") out.push({ tenantId, type: "task.created", data: taskView(t) });
  for (const [, x] of c.tasks)
    if (x.op === "update" && x.row.state === "COMPLETED")
      out.push({ tenantId, type: "task.completed", data: taskView(x.row) });
  // Ends last: a subscriber reading the events in order sees the last task completed before its instance.
  for (const [id, x] of c.instances) {
    const r = x.row;
    const before = x.op === "insert" ? "ACTIVE" : c.baseStates.get(id);
    if (ended(r.state) && before !== r.state)
      out.push({
        tenantId,
        type: r.state === "COMPLETED" ? "process.instance.completed" : "process.instance.cancelled",
        data: instanceData(r),
      });
  }
  return out;
}

function ofCaseChange(tenantId: string, c: CaseChanges, completed: TaskRow[]): WebhookEvent[] {
  const out: WebhookEvent[] = [];
  for (const t of c.tasksCreated) out.push({ tenantId, type: "task.created", data: taskView(t) });
  for (const t of completed) out.push({ tenantId, type: "task.completed", data: taskView(toTask(t)) });
  for (const lc of c.cases.values()) {
    const i = lc.instance;
    if (i.state === "COMPLETED" && lc.baseState !== "COMPLETED")
      out.push({
        tenantId,
        type: "case.completed",
        data: instanceSummary("CMMN", summaryRowOf(i), i.parentCaseId, true),
      });
  }
  return out;
}

/** The webhook events a runtime write causes (translated inside its transaction). */
export function webhookEventsOf(change: WrittenChange): WebhookEvent[] {
  const { tenantId } = change;
  switch (change.kind) {
    case "bpmn":
      return ofProcessChange(tenantId, change.changes);
    case "cmmn":
      return ofCaseChange(tenantId, change.changes, change.completedTasks ?? []);
    case "task-assigned":
      return [{ tenantId, type: "task.assigned", data: taskView(toTask(change.task)) }];
    case "job-dead-lettered": {
      const j = change.job;
      const data = {
        id: j.id,
        instanceId: j.instance_id,
        activityId: j.activity_id,
        definitionId: j.definition_id,
        kind: j.kind,
        state: "DEADLETTER",
        retries: 0,
        exception: change.exception,
        createdAt: iso(j.created_at),
      };
      return [{ tenantId, type: "job.dead_lettered", data }];
    }
  }
}
