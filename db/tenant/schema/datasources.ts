import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A tenant-wide data source (no process) that forms query for options: STATIC, HTTP or CMS. */
export const datasources = sqliteTable(
  "datasources",
  {
    id: text("id").primaryKey(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    /** Kind-specific configuration as JSON text; secrets are referenced as {{var:NAME}}, never stored here. */
    config: text("config").notNull(),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("datasources_key_uq").on(t.key)],
);
