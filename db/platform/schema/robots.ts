import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenants } from "./identity";

/** A tenant's named automation: its parameter definitions and their configured values (secrets as variable references). */
export const robots = sqliteTable(
  "robots",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** What models name (pms:robot, camunda:topic) and runners fetch by (their topics). */
    key: text("key").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    /** JSON list of {name, type, required, secret}. */
    parameters: text("parameters").notNull(),
    /** JSON object name → value; a secret parameter's value is {variable: "<tenant variable name>"}. */
    config: text("config").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("robots_tenant_key_uq").on(t.tenantId, t.key)],
);

/** A registered external worker; only the hash of its token is kept (the prefix finds the row). */
export const robotRunners = sqliteTable(
  "robot_runners",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by"),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("robot_runners_tenant_idx").on(t.tenantId), index("robot_runners_prefix_idx").on(t.prefix)],
);
