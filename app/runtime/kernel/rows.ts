import type {
  ActivityRecord,
  ExecutionRecord,
  InstanceRecord,
  JobRecord,
  SubscriptionRecord,
  TaskRecord,
} from "../../../engine/bpmn";
import type {
  activityLog,
  definitionSettings,
  definitions,
  eventSubscriptions,
  executions,
  jobs,
  processInstances,
  tasks,
  variables,
} from "../../../db/engine/schema";
import type { SqlRow } from "./sql-row";

/** Rows of the engine tables as bun:sqlite returns them, typed from the drizzle schema; one mapper per table. */
export type InstanceRow = SqlRow<typeof processInstances.$inferSelect>;
export type ExecutionRow = SqlRow<typeof executions.$inferSelect>;
export type VariableRow = SqlRow<typeof variables.$inferSelect>;
export type TaskRow = SqlRow<typeof tasks.$inferSelect>;
export type JobRow = SqlRow<typeof jobs.$inferSelect>;
export type SubscriptionRow = SqlRow<typeof eventSubscriptions.$inferSelect>;
export type ActivityRow = SqlRow<typeof activityLog.$inferSelect>;
export type DefinitionRow = SqlRow<typeof definitions.$inferSelect>;
export type SettingsRow = SqlRow<typeof definitionSettings.$inferSelect>;

/** `SELECT COUNT(*) AS c …` */
export interface CountRow {
  c: number;
}

export const toInstance = (r: InstanceRow): InstanceRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  definitionId: r.definition_id,
  definitionKey: r.definition_key,
  version: r.version,
  businessKey: r.business_key,
  parentInstanceId: r.parent_instance_id,
  parentExecutionId: r.parent_execution_id,
  state: r.state as InstanceRecord["state"],
  startedBy: r.started_by,
  channel: r.channel,
  startTime: r.start_time,
  endTime: r.end_time,
  endReason: r.end_reason,
  revision: r.revision,
});

export const toExecution = (r: ExecutionRow): ExecutionRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  parentId: r.parent_id,
  kind: r.kind as ExecutionRecord["kind"],
  scopeId: r.scope_id,
  activityId: r.activity_id,
  state: r.state as ExecutionRecord["state"],
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});

export const toTask = (r: TaskRow): TaskRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  executionId: r.execution_id,
  activityId: r.activity_id,
  name: r.name,
  businessKey: r.business_key,
  definitionKey: r.definition_key,
  definitionId: r.definition_id,
  assignee: r.assignee,
  owner: r.owner,
  candidateUsers: JSON.parse(r.candidate_users),
  candidateGroups: JSON.parse(r.candidate_groups),
  created: r.created,
  dueDate: r.due_date,
  priority: r.priority,
  formKey: r.form_key,
  formVersionId: r.form_version_id,
  state: r.state as TaskRecord["state"],
  completedAt: r.completed_at,
  completedBy: r.completed_by,
  channel: r.channel,
});

export const toJob = (r: JobRow): JobRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  executionId: r.execution_id,
  definitionId: r.definition_id,
  activityId: r.activity_id,
  kind: r.kind as JobRecord["kind"],
  state: r.state as JobRecord["state"],
  dueAt: r.due_at,
  retries: r.retries,
  exception: r.exception,
  lockOwner: r.lock_owner,
  lockExpiresAt: r.lock_expires_at,
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});

export const toSub = (r: SubscriptionRow): SubscriptionRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  executionId: r.execution_id,
  definitionId: r.definition_id,
  activityId: r.activity_id,
  type: r.type as SubscriptionRecord["type"],
  name: r.name,
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});

export const toActivity = (r: ActivityRow): ActivityRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  executionId: r.execution_id,
  activityId: r.activity_id,
  activityName: r.activity_name,
  activityType: r.activity_type,
  startTime: r.start_time,
  endTime: r.end_time,
  taskId: r.task_id,
  who: r.who,
  channel: r.channel,
  outcome: r.outcome as ActivityRecord["outcome"],
});

/** ISO text of an epoch-ms instant, or null. */
export const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();
