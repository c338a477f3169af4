import { blob, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The knowledge tables, defined once: a tenant's file holds its own bases, the platform database the global ones
 * (visible to every tenant). The FTS5 and vec0 indexes beside them are virtual tables created by app/ai/knowledge
 * on first use (drizzle cannot describe them, and the vector width depends on the configured model).
 */
export function knowledgeTables() {
  const knowledgeBases = sqliteTable("knowledge_bases", {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    /** SHARED: a base of the knowledge-bases routes; PROCESS: the hidden base of one process's own documents. */
    kind: text("kind", { enum: ["SHARED", "PROCESS"] }).notNull(),
    processKey: text("process_key"),
    /** The embedding model its vectors were made with; another configured model marks the base for reindex. */
    embeddingModel: text("embedding_model"),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  });
  const kbDocuments = sqliteTable(
    "kb_documents",
    {
      id: text("id").primaryKey(),
      baseId: text("base_id")
        .notNull()
        .references(() => knowledgeBases.id, { onDelete: "cascade" }),
      fileName: text("file_name").notNull(),
      format: text("format", { enum: ["PDF", "TXT", "MD"] }).notNull(),
      size: integer("size").notNull(),
      sha256: text("sha256").notNull(),
      status: text("status", { enum: ["PENDING", "INDEXING", "INDEXED", "FAILED"] }).notNull(),
      error: text("error"),
      chunksDone: integer("chunks_done").notNull().default(0),
      chunksTotal: integer("chunks_total").notNull().default(0),
      /** Whether the chunks carry vectors (false: indexed for full-text search only). */
      embedded: integer("embedded", { mode: "boolean" }).notNull().default(false),
      uploadedBy: text("uploaded_by"),
      createdAt: text("created_at").notNull(),
      updatedAt: text("updated_at").notNull(),
    },
    (t) => [index("kb_documents_base_idx").on(t.baseId, t.createdAt)],
  );
  const kbChunks = sqliteTable(
    "kb_chunks",
    {
      /** Also the rowid of the chunk in the FTS5 and vec0 tables. */
      id: integer("id").primaryKey({ autoIncrement: true }),
      documentId: text("document_id")
        .notNull()
        .references(() => kbDocuments.id, { onDelete: "cascade" }),
      baseId: text("base_id").notNull(),
      ordinal: integer("ordinal").notNull(),
      text: text("text").notNull(),
      /** Heading path (Markdown) or "page N" (PDF). */
      location: text("location"),
      startOffset: integer("start_offset").notNull(),
      endOffset: integer("end_offset").notNull(),
    },
    (t) => [index("kb_chunks_document_idx").on(t.documentId), index("kb_chunks_base_idx").on(t.baseId)],
  );
  /**
   * The coarse quantiser (IVF) of a large base, one row per generation: k-means centroids, and a vec0 table
   * `kb_ivf_t<id>` (created by app/ai/knowledge, partitioned by cell) holding the base's vectors assigned to them.
   * A BUILDING generation is filled up to `cursor` (chunk id) while the ACTIVE one answers queries.
   */
  const kbIvfIndexes = sqliteTable(
    "kb_ivf_indexes",
    {
      id: integer("id").primaryKey({ autoIncrement: true }),
      baseId: text("base_id").notNull(),
      dims: integer("dims").notNull(),
      cells: integer("cells").notNull(),
      /** Float32 centroids, cells × dims, unit length. */
      centroids: blob("centroids").notNull(),
      state: text("state", { enum: ["BUILDING", "ACTIVE"] }).notNull(),
      /** Chunks of the base when trained: a retrain is due when the base has doubled since. */
      trainedCount: integer("trained_count").notNull(),
      /** BUILDING: every chunk id up to this one is in the table. */
      cursor: integer("cursor").notNull().default(0),
      createdAt: text("created_at").notNull(),
    },
    (t) => [index("kb_ivf_indexes_base_idx").on(t.baseId)],
  );
  return { knowledgeBases, kbDocuments, kbChunks, kbIvfIndexes };
}
