import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

// These tables are rebuilt WITHOUT ROWID by the custom migration 0008_cases_without_rowid (drizzle cannot declare it): a text primary key is then the
// table's own b-tree instead of a second one beside the rowid table. A migration drizzle-kit generates later that rebuilds one
// of them must keep `WITHOUT ROWID` in its CREATE TABLE.

/** A CMMN case instance, running or ended (the same row is its history); `revision` serialises concurrent commands; variables are the case's JSON object. */
export const caseInstances = sqliteTable(
  "case_instances",
  {
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
  },
  (t) => [
    index("case_instances_tenant_state_idx").on(t.tenantId, t.state, t.startTime),
    index("case_instances_definition_idx").on(t.tenantId, t.definitionKey, t.state),
    // The history cleanup's reader: the oldest ended cases of one key, whatever else the tenant holds.
    index("case_instances_history_idx").on(t.tenantId, t.definitionKey, t.endTime).where(sql`state <> 'ACTIVE'`),
  ],
);

/**
 * Plan item instances of a case (kept after they end: they are the case's activity history); `data` holds sentry memory and
 * links. Keyed by case first, so a case's items share leaf pages: loading a case is one range read, a command dirties one page.
 */
export const casePlanItems = sqliteTable(
  "case_plan_items",
  {
    id: text("id").notNull(),
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
    /** the BPMN instance a process task started (also in `data`), so the case waiting for it is found when it ends */
    processInstanceId: text("process_instance_id"),
  },
  (t) => [
    primaryKey({ columns: [t.caseInstanceId, t.id] }),
    // Partial: only process task rows are in it, the other plan items cost it nothing.
    index("case_plan_items_process_instance_idx")
      .on(t.processInstanceId)
      .where(sql`${t.processInstanceId} IS NOT NULL`),
  ],
);

// Timer event listeners are rows of the jobs table (kind 'case-timer'), run by the runtime's one job executor: the
// case_timers table they had is moved into it and dropped by migration 0012_case_timers_into_jobs.
