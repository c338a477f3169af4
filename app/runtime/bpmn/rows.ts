import type {
  ActivityRecord,
  ExecutionRecord,
  InstanceRecord,
  JobRecord,
  SubscriptionRecord,
  TaskRecord,
} from "../../../engine/bpmn";

/** Row shapes as bun:sqlite returns them (snake_case columns) and their mapping to engine records. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

export const toInstance = (r: Row): InstanceRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  definitionId: r.definition_id,
  definitionKey: r.definition_key,
  version: r.version,
  businessKey: r.business_key,
  parentInstanceId: r.parent_instance_id,
  parentExecutionId: r.parent_execution_id,
  state: r.state,
  startedBy: r.started_by,
  channel: r.channel,
  startTime: r.start_time,
  endTime: r.end_time,
  endReason: r.end_reason,
  revision: r.revision,
});

export const toExecution = (r: Row): ExecutionRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  parentId: r.parent_id,
  kind: r.kind,
  scopeId: r.scope_id,
  activityId: r.activity_id,
  state: r.state,
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});

export const toTask = (r: Row): TaskRecord => ({
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
  state: r.state,
  completedAt: r.completed_at,
  completedBy: r.completed_by,
  channel: r.channel,
});

export const toJob = (r: Row): JobRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  executionId: r.execution_id,
  definitionId: r.definition_id,
  activityId: r.activity_id,
  kind: r.kind,
  state: r.state,
  dueAt: r.due_at,
  retries: r.retries,
  exception: r.exception,
  lockOwner: r.lock_owner,
  lockExpiresAt: r.lock_expires_at,
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});

export const toSub = (r: Row): SubscriptionRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  instanceId: r.instance_id,
  executionId: r.execution_id,
  definitionId: r.definition_id,
  activityId: r.activity_id,
  type: r.type,
  name: r.name,
  data: JSON.parse(r.data),
  createdAt: r.created_at,
});

export const toActivity = (r: Row): ActivityRecord => ({
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
  outcome: r.outcome,
});

/** ISO text of an epoch-ms instant, or null. */
export const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();
