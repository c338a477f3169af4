import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Facts about this tenant file itself (its tenant id, when it was provisioned). */
export const tenantMeta = sqliteTable("tenant_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
