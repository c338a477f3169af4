import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

/** Every deployed version of a process (BPMN) or case (CMMN) definition, tagged by tenant; `model` is the parsed BPMN as JSON. */
export const definitions = sqliteTable(
  "definitions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    version: integer("version").notNull(),
    deploymentId: text("deployment_id").notNull(),
    xml: text("xml").notNull(),
    model: text("model"),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("definitions_tenant_key_version_uq").on(t.tenantId, t.key, t.version),
    index("definitions_tenant_idx").on(t.tenantId, t.key),
  ],
);

/** One deploy call: a file that produced one version of each process in it. */
export const deployments = sqliteTable(
  "deployments",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    fileName: text("file_name").notNull(),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("deployments_tenant_idx").on(t.tenantId)],
);

/** Per definition key: suspension, catalog flag and configuration (business key template, attachment and MCP policies). */
export const definitionSettings = sqliteTable(
  "definition_settings",
  {
    tenantId: text("tenant_id").notNull(),
    key: text("key").notNull(),
    suspended: integer("suspended", { mode: "boolean" }).notNull().default(false),
    catalogEnabled: integer("catalog_enabled", { mode: "boolean" }).notNull().default(true),
    businessKeyTemplate: text("business_key_template"),
    attachmentPolicy: text("attachment_policy"),
    mcpPolicy: text("mcp_policy"),
    /** Days an ended instance of the key is kept before the history cleanup removes it; null: the tenant default. */
    historyTtlDays: integer("history_ttl_days"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] })],
);

/** Per tenant: the history time-to-live of definitions that set none (null: ended instances are kept forever). */
export const historySettings = sqliteTable("history_settings", {
  tenantId: text("tenant_id").primaryKey(),
  defaultTtlDays: integer("default_ttl_days"),
  updatedAt: text("updated_at").notNull(),
});
