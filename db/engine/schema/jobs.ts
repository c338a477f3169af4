import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** Async continuations, timers and incidents; claimed by setting the lock inside a transaction. */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    instanceId: text("instance_id"),
    executionId: text("execution_id"),
    definitionId: text("definition_id").notNull(),
    activityId: text("activity_id").notNull(),
    kind: text("kind").notNull(),
    state: text("state").notNull(),
    dueAt: integer("due_at").notNull(),
    retries: integer("retries").notNull(),
    exception: text("exception"),
    lockOwner: text("lock_owner"),
    lockExpiresAt: integer("lock_expires_at"),
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("jobs_due_idx").on(t.state, t.dueAt),
    index("jobs_instance_idx").on(t.instanceId),
    index("jobs_tenant_state_idx").on(t.tenantId, t.state),
    // Runners claim robot jobs of one tenant, oldest first, and stop at maxTasks: no sort of the whole queue.
    index("jobs_tenant_kind_due_idx").on(t.tenantId, t.kind, t.state, t.dueAt),
    // Runners claim robot jobs through these (app/runtime/kernel/external-claims.ts): the unlocked ones in due order or
    // by priority first (Camunda's client asks for it by default), the held ones by lock expiry. Through the index
    // above, workers that fetch ahead (Camunda's client locks more while it completes what it holds) made every claim
    // walk past, or sort, the whole queue.
    index("jobs_robot_free_due_idx")
      .on(t.tenantId, t.dueAt)
      .where(sql`kind = 'external' AND state = 'EXECUTABLE' AND lock_owner IS NULL`),
    index("jobs_robot_free_priority_idx")
      .on(t.tenantId, sql`coalesce(json_extract(data, '$.priority'), 0) DESC`, t.dueAt)
      .where(sql`kind = 'external' AND state = 'EXECUTABLE' AND lock_owner IS NULL`),
    index("jobs_robot_held_expiry_idx")
      .on(t.tenantId, t.lockExpiresAt)
      .where(sql`kind = 'external' AND state = 'EXECUTABLE' AND lock_owner IS NOT NULL`),
  ],
);

/** Message, signal and conditional subscriptions of waiting executions, and start-event subscriptions of definitions (no instance). */
export const eventSubscriptions = sqliteTable(
  "event_subscriptions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    instanceId: text("instance_id"),
    executionId: text("execution_id"),
    definitionId: text("definition_id").notNull(),
    activityId: text("activity_id").notNull(),
    type: text("type").notNull(),
    name: text("name").notNull(),
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("event_subscriptions_lookup_idx").on(t.tenantId, t.type, t.name),
    index("event_subscriptions_instance_idx").on(t.instanceId),
  ],
);
