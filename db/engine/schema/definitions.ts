import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Every deployed version of a process (BPMN) or case (CMMN) definition, tagged by tenant. */
export const definitions = sqliteTable("definitions", {
  id: text("id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  key: text("key").notNull(),
  name: text("name").notNull(),
  type: text("type").notNull(),
  version: integer("version").notNull(),
  deploymentId: text("deployment_id").notNull(),
  xml: text("xml").notNull(),
  published: integer("published", { mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull(),
}, (t) => [uniqueIndex("definitions_tenant_key_version_uq").on(t.tenantId, t.key, t.version), index("definitions_tenant_idx").on(t.tenantId, t.key)]);
