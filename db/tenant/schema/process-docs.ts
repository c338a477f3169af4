import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The written description of a process (its documentation), one per definition key; versions share it. */
export const processDocs = sqliteTable("process_docs", {
  processKey: text("process_key").primaryKey(),
  description: text("description").notNull(),
  updatedBy: text("updated_by"),
  updatedAt: text("updated_at").notNull(),
});
