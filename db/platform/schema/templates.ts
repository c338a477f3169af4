import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/** Global DMN templates (SUPER_ADMIN); provisioning copies them into each tenant's decisions. */
export const dmnTemplates = sqliteTable("dmn_templates", {
  key: text("key").primaryKey(),
  name: text("name").notNull(),
  description: text("description"),
  xml: text("xml").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** Global process templates; provisioning deploys them into each new tenant. */
export const processTemplates = sqliteTable("process_templates", {
  key: text("key").primaryKey(),
  name: text("name").notNull(),
  xml: text("xml").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  createdAt: text("created_at").notNull(),
});
