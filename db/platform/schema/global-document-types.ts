import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";

/** Document types of the global layer, shared by every tenant; written by SUPER_ADMIN only. */
export const globalDocumentTypes = sqliteTable(
  "global_document_types",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status", { enum: ["ACTIVE", "INACTIVE"] }).notNull(),
    processKey: text("process_key"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("global_document_types_process_idx").on(t.processKey)],
);
