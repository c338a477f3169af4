import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Every deployed version of a DMN decision, tagged by tenant; `key` is the decision id inside the file. */
export const decisions = sqliteTable(
  "decisions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    version: integer("version").notNull(),
    deploymentId: text("deployment_id").notNull(),
    xml: text("xml").notNull(),
    sourceTemplate: text("source_template"),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("decisions_tenant_key_version_uq").on(t.tenantId, t.key, t.version),
    index("decisions_tenant_idx").on(t.tenantId),
  ],
);
