import type { CaseInstanceRecord, PlanItemInstance, TimerRecord } from "../../../engine/cmmn";
import type { caseInstances, casePlanItems } from "../../../db/engine/schema";
import type { SqlRow } from "../kernel/sql-row";
import type { JobRow } from "../kernel/rows";

/** Rows of the case tables as bun:sqlite returns them, typed from the drizzle schema; one mapper per table. */
export type CaseInstanceRow = SqlRow<typeof caseInstances.$inferSelect>;
export type PlanItemRow = SqlRow<typeof casePlanItems.$inferSelect>;

export const toCase = (r: CaseInstanceRow): CaseInstanceRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  definitionId: r.definition_id,
  definitionKey: r.definition_key,
  version: r.version,
  businessKey: r.business_key,
  parentCaseId: r.parent_case_id,
  parentPlanItemId: r.parent_plan_item_id,
  state: r.state as CaseInstanceRecord["state"],
  startedBy: r.started_by,
  channel: r.channel,
  startTime: r.start_time,
  endTime: r.end_time,
  endReason: r.end_reason,
  variables: JSON.parse(r.variables),
  revision: r.revision,
});

export const toItem = (r: PlanItemRow): PlanItemInstance => ({
  id: r.id,
  tenantId: r.tenant_id,
  caseInstanceId: r.case_instance_id,
  stageInstanceId: r.stage_instance_id,
  elementId: r.element_id,
  definitionRef: r.definition_ref,
  name: r.name,
  type: r.type as PlanItemInstance["type"],
  state: r.state as PlanItemInstance["state"],
  seq: r.seq,
  createdAt: r.created_at,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  endedBy: r.ended_by,
  channel: r.channel,
  data: JSON.parse(r.data),
});

/** A case timer is a job row (kind case-timer): the case is its instance, the listener's plan item its execution. */
export const toTimer = (r: JobRow): TimerRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  caseInstanceId: r.instance_id!,
  planItemInstanceId: r.execution_id!,
  elementId: r.activity_id,
  dueAt: r.due_at,
  repeat: (JSON.parse(r.data) as { repeat?: TimerRecord["repeat"] }).repeat ?? null,
  createdAt: r.created_at,
});
