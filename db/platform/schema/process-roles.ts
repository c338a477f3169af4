import { sqliteTable, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { tenants, users } from "./identity";

/**
 * A process role of a tenant: either for one process or tenant-wide. Candidate groups of tasks name roles by key.
 * `processKey` is "" for a tenant-wide role so the unique index also covers those (SQLite treats NULLs as distinct).
 */
export const processRoles = sqliteTable(
  "process_roles",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    processKey: text("process_key").notNull().default(""),
    key: text("key").notNull(),
    name: text("name").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("process_roles_scope_key_uq").on(t.tenantId, t.processKey, t.key)],
);

/** Users holding a process role; tenantId is repeated so "roles of a user in a tenant" is one indexed lookup. */
export const processRoleMembers = sqliteTable(
  "process_role_members",
  {
    id: text("id").primaryKey(),
    roleId: text("role_id")
      .notNull()
      .references(() => processRoles.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("process_role_members_role_user_uq").on(t.roleId, t.userId),
    index("process_role_members_tenant_user_idx").on(t.tenantId, t.userId),
  ],
);
