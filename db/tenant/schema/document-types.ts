import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The tenant's own document types (the global layer lives in the platform database). */
export const documentTypes = sqliteTable("document_types", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description"),
  status: text("status", { enum: ["ACTIVE", "INACTIVE"] }).notNull(),
  processKey: text("process_key"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
