import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { tenants, users } from "./identity";

/** A message for one user in one tenant (TASK_ASSIGNED, TASK_DELEGATED, AI_TASK_FAILED, ...). */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    link: text("link"),
    readAt: text("read_at"),
    createdAt: text("created_at").notNull(),
    // Listed newest first by rowid (insertion order), which this index carries implicitly, so equal timestamps stay ordered.
  },
  (t) => [index("notifications_user_tenant_idx").on(t.userId, t.tenantId)],
);
