import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

// The tables of this file, tasks.ts and history.ts are rebuilt WITHOUT ROWID by the custom migration 0005_engine_without_rowid.sql
// (drizzle cannot declare it): the primary key is then the table itself instead of a second b-tree beside a rowid table, and
// every secondary index carries the key. A migration drizzle-kit generates later that rebuilds one of them must keep
// `WITHOUT ROWID` in its CREATE TABLE. Each index here is used by a query of app/services/process-runtime or tasks/inbox.ts
// (checked with EXPLAIN QUERY PLAN); an index nothing reads costs a b-tree write per command.

/** A process instance, running or ended (the same row is its history); `revision` serialises concurrent commands. */
export const processInstances = sqliteTable(
  "process_instances",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    definitionId: text("definition_id").notNull(),
    definitionKey: text("definition_key").notNull(),
    version: integer("version").notNull(),
    businessKey: text("business_key"),
    parentInstanceId: text("parent_instance_id"),
    parentExecutionId: text("parent_execution_id"),
    state: text("state").notNull(),
    startedBy: text("started_by"),
    channel: text("channel"),
    startTime: integer("start_time").notNull(),
    endTime: integer("end_time"),
    endReason: text("end_reason"),
    revision: integer("revision").notNull().default(0),
  },
  (t) => [
    // Running and ended instances in their list orders (newest started, most recently ended); an instance moves from one
    // to the other once, when it ends.
    index("process_instances_running_idx").on(t.tenantId, t.startTime).where(sql`state IN ('ACTIVE','SUSPENDED')`),
    index("process_instances_ended_idx").on(t.tenantId, t.endTime).where(sql`state IN ('COMPLETED','CANCELLED')`),
    // Running instances by key and version (the monitor's count per version reads it alone). Partial: an instance that
    // ends in its first command (a straight-through process) never enters it; ended ones are read by key through
    // process_instances_history_idx.
    index("process_instances_definition_idx")
      .on(t.tenantId, t.definitionKey, t.version)
      .where(sql`state IN ('ACTIVE','SUSPENDED')`),
    // The cockpit's search by business key (a prefix read as a range), running and ended alike.
    index("process_instances_business_key_idx").on(t.tenantId, t.businessKey),
    // The cockpit's list of one definition's running instances, newest first: a page is read in order and stops,
    // where the key-and-version index above would have every running instance of the key sorted first.
    index("process_instances_definition_started_idx")
      .on(t.tenantId, t.definitionKey, t.startTime)
      .where(sql`state IN ('ACTIVE','SUSPENDED')`),
    // The history cleanup's reader: the oldest ended instances of one key, whatever else the tenant holds.
    index("process_instances_history_idx")
      .on(t.tenantId, t.definitionKey, t.endTime)
      .where(sql`state IN ('COMPLETED','CANCELLED')`),
  ],
);

/** The live execution tree of running instances (scopes and tokens); rows vanish when the instance ends. Keyed by instance first: a command reads and writes one instance's rows, which then share a leaf page. */
export const executions = sqliteTable(
  "executions",
  {
    id: text("id").notNull(),
    tenantId: text("tenant_id").notNull(),
    instanceId: text("instance_id").notNull(),
    parentId: text("parent_id"),
    kind: text("kind").notNull(),
    scopeId: text("scope_id"),
    activityId: text("activity_id"),
    state: text("state").notNull(),
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.id] })],
);

/** Variables by owning execution (the root execution id is the instance id, kept after the end for history). */
export const variables = sqliteTable(
  "variables",
  {
    tenantId: text("tenant_id").notNull(),
    instanceId: text("instance_id").notNull(),
    executionId: text("execution_id").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
    textValue: text("text_value"),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.executionId, t.name] }),
    index("variables_search_idx").on(t.tenantId, t.name, t.textValue),
  ],
);

/**
 * Per-tenant totals the dashboard and the Manager's lists read instead of counting an index (100 ms at 1,000,000
 * entries): running and ended process instances, open tasks (of processes and cases), running and ended cases. They are
 * kept by triggers on process_instances, tasks and case_instances (custom SQL of migration 0016; drizzle cannot declare
 * triggers), so every writer moves them in its own transaction: both runtimes, the history cleanup and the tenant purge.
 */
export const instanceCounts = sqliteTable("instance_counts", {
  tenantId: text("tenant_id").primaryKey(),
  running: integer("running").notNull().default(0),
  ended: integer("ended").notNull().default(0),
  openTasks: integer("open_tasks").notNull().default(0),
  runningCases: integer("running_cases").notNull().default(0),
  endedCases: integer("ended_cases").notNull().default(0),
});
