import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

/** One row per activity visit: start, end, who and through which channel; the activity log of history routes. Keyed by instance, then by the time-ordered id (the order of visits). */
export const activityLog = sqliteTable(
  "activity_log",
  {
    id: text("id").notNull(),
    tenantId: text("tenant_id").notNull(),
    instanceId: text("instance_id").notNull(),
    executionId: text("execution_id").notNull(),
    activityId: text("activity_id").notNull(),
    activityName: text("activity_name").notNull(),
    activityType: text("activity_type").notNull(),
    startTime: integer("start_time").notNull(),
    endTime: integer("end_time"),
    taskId: text("task_id"),
    who: text("who"),
    channel: text("channel"),
    outcome: text("outcome"),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.id] })],
);

/** Who takes part in an instance (started it, is or was assignee/candidate, completed a task): drives instance visibility. */
export const involvements = sqliteTable(
  "involvements",
  {
    tenantId: text("tenant_id").notNull(),
    instanceId: text("instance_id").notNull(),
    kind: text("kind").notNull(),
    principal: text("principal").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.kind, t.principal] }),
    index("involvements_principal_idx").on(t.tenantId, t.kind, t.principal),
  ],
);
