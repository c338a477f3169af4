import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { knowledgeTables } from "../../knowledge-tables";

export const { knowledgeBases, kbDocuments, kbChunks, kbIvfIndexes } = knowledgeTables();

/** A process's links to knowledge bases (its own tenant's or global ones, so no foreign key). */
export const kbProcessLinks = sqliteTable(
  "kb_process_links",
  {
    definitionKey: text("definition_key").notNull(),
    baseId: text("base_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.definitionKey, t.baseId] })],
);
