import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** A CMMN case instance, running or ended (the same row is its history); `revision` serialises concurrent commands; variables are the case's JSON object. */
export const caseInstances = sqliteTable("case_instances", {
  id: text("id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  definitionId: text("definition_id").notNull(),
  definitionKey: text("definition_key").notNull(),
  version: integer("version").notNull(),
  businessKey: text("business_key"),
  parentCaseId: text("parent_case_id"),
  parentPlanItemId: text("parent_plan_item_id"),
  state: text("state").notNull(),
  startedBy: text("started_by"),
  channel: text("channel"),
  startTime: integer("start_time").notNull(),
  endTime: integer("end_time"),
  endReason: text("end_reason"),
  variables: text("variables").notNull(),
  revision: integer("revision").notNull().default(0),
}, (t) => [
  index("case_instances_tenant_state_idx").on(t.tenantId, t.state, t.startTime),
  index("case_instances_definition_idx").on(t.tenantId, t.definitionKey, t.state),
  index("case_instances_parent_idx").on(t.parentCaseId),
]);

/** Plan item instances of a case (kept after they end: they are the case's activity history); `data` holds sentry memory and links. */
export const casePlanItems = sqliteTable("case_plan_items", {
  id: text("id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  caseInstanceId: text("case_instance_id").notNull(),
  stageInstanceId: text("stage_instance_id"),
  elementId: text("element_id").notNull(),
  definitionRef: text("definition_ref").notNull(),
  name: text("name").notNull(),
  type: text("type").notNull(),
  state: text("state").notNull(),
  seq: integer("seq").notNull(),
  createdAt: integer("created_at").notNull(),
  startedAt: integer("started_at"),
  endedAt: integer("ended_at"),
  endedBy: text("ended_by"),
  channel: text("channel"),
  data: text("data").notNull(),
}, (t) => [
  index("case_plan_items_case_idx").on(t.caseInstanceId, t.seq),
  index("case_plan_items_tenant_element_idx").on(t.tenantId, t.elementId, t.state),
]);

/** Due dates of timer event listeners; a row is deleted by the transaction that fires it, so each due timer fires once even across restarts. */
export const caseTimers = sqliteTable("case_timers", {
  id: text("id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  caseInstanceId: text("case_instance_id").notNull(),
  planItemInstanceId: text("plan_item_instance_id").notNull(),
  elementId: text("element_id").notNull(),
  dueAt: integer("due_at").notNull(),
  repeat: text("repeat"),
  createdAt: integer("created_at").notNull(),
}, (t) => [index("case_timers_due_idx").on(t.dueAt), index("case_timers_case_idx").on(t.caseInstanceId)]);
