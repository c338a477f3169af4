import { sqliteTable, text, integer, blob, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A CMS collection: its field definitions (JSON array) and its confidentiality level. */
export const cmsCollections = sqliteTable(
  "cms_collections",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** JSON array of field definitions, validated by the service on every write. */
    fields: text("fields").notNull(),
    confidentiality: text("confidentiality", { enum: ["PUBLIC", "SECRET", "TOP_SECRET"] }).notNull(),
    /** Kept by every record write in the same transaction so unfiltered pages never count a million rows. */
    recordCount: integer("record_count").notNull().default(0),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("cms_collections_name_uq").on(t.name)],
);

/**
 * One record: its values as a JSON object. `seq` is the rowid alias (stable insertion order, small join key);
 * `id` is the public identifier.
 */
export const cmsRecords = sqliteTable(
  "cms_records",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    collectionId: text("collection_id")
      .notNull()
      .references(() => cmsCollections.id, { onDelete: "cascade" }),
    values: text("values").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("cms_records_id_uq").on(t.id), index("cms_records_collection_idx").on(t.collectionId, t.seq)],
);

/**
 * Index side table: one row per (record, indexable field value); a multiselect gives one row per option.
 * `v` is declared BLOB so SQLite keeps each value's own type (numbers compare as numbers, text as text).
 * Rows are written and removed by the record service in the record's transaction (no FK, to keep bulk loads fast).
 * Both indexes cover every column the queries read, so filters, counts and sort keys never visit the table rows:
 * `lookup` serves a filter range (already in record order for an equality) and an ordered walk by a sort field;
 * `record_field` answers "the value of field f of record s" in one index probe (checks of further filters, sort keys).
 */
export const cmsRecordValues = sqliteTable(
  "cms_record_values",
  {
    collectionId: text("collection_id").notNull(),
    field: text("field").notNull(),
    v: blob("v"),
    recordSeq: integer("record_seq").notNull(),
  },
  (t) => [
    index("cms_record_values_lookup_idx").on(t.collectionId, t.field, t.v, t.recordSeq),
    index("cms_record_values_record_field_idx").on(t.recordSeq, t.field, t.v),
  ],
);
