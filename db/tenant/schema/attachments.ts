import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/**
 * Metadata of one stored file version. The bytes live under the tenant's files folder, named by `sha256`
 * (several rows may share one file). Replacing creates a new row and marks the previous one SUPERSEDED;
 * every version of one attachment shares `rootId`.
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: text("id").primaryKey(),
    rootId: text("root_id").notNull(),
    entityType: text("entity_type", {
      enum: ["PROCESS_INSTANCE", "KNOWLEDGE_BASE", "PROCESS_KNOWLEDGE", "GLOBAL"],
    }).notNull(),
    entityId: text("entity_id").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    version: integer("version").notNull(),
    documentTypeId: text("document_type_id"),
    status: text("status", { enum: ["CURRENT", "SUPERSEDED"] }).notNull(),
    supersededBy: text("superseded_by"),
    supersededAt: text("superseded_at"),
    uploadedBy: text("uploaded_by"),
    uploadedAt: text("uploaded_at").notNull(),
  },
  (t) => [
    index("attachments_entity_idx").on(t.entityType, t.entityId, t.status),
    index("attachments_root_idx").on(t.rootId, t.version),
    index("attachments_sha_idx").on(t.sha256),
  ],
);
