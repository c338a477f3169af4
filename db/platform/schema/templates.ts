import { sqliteTable, text, integer, primaryKey } from "drizzle-orm/sqlite-core";
import { tenants } from "./identity";

/** Global DMN templates (SUPER_ADMIN); provisioning copies them into each tenant's decisions. */
export const dmnTemplates = sqliteTable("dmn_templates", {
  key: text("key").primaryKey(),
  name: text("name").notNull(),
  description: text("description"),
  xml: text("xml").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * Global process templates (SUPER_ADMIN). `version` rises with each update of the XML; every subscribing tenant gets
 * each version as its own definition. `enabled` templates are subscribed to by new tenants at provisioning.
 */
export const processTemplates = sqliteTable("process_templates", {
  key: text("key").primaryKey(),
  name: text("name").notNull(),
  xml: text("xml").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  version: integer("version").notNull().default(1),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at"),
});

/**
 * A tenant's subscription to a template. `appliedVersion` is the template version last deployed into the tenant and
 * `definitionVersion` the tenant's definition version it became; a later tenant version means the tenant deployed its
 * own edit: the subscription turns DIVERGED and template versions stop being applied to it.
 */
export const processTemplateSubscriptions = sqliteTable(
  "process_template_subscriptions",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    templateKey: text("template_key")
      .notNull()
      .references(() => processTemplates.key, { onDelete: "cascade" }),
    status: text("status").notNull(),
    appliedVersion: integer("applied_version"),
    definitionVersion: integer("definition_version"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.templateKey] })],
);
