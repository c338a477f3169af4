import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/** Tenant-wide values and secrets (read by data sources and robots); a secret's value is never returned by the API. */
export const tenantVariables = sqliteTable("tenant_variables", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  secret: integer("secret", { mode: "boolean" }).notNull().default(false),
  updatedBy: text("updated_by"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
