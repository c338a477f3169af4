import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** Comments on tasks (open or completed), tagged by tenant like the tasks themselves. */
export const taskComments = sqliteTable(
  "task_comments",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    taskId: text("task_id").notNull(),
    userId: text("user_id"),
    message: text("message").notNull(),
    time: integer("time").notNull(),
  },
  (t) => [index("task_comments_task_idx").on(t.tenantId, t.taskId, t.time)],
);
