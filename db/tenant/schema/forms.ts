import { sqliteTable, text, integer, uniqueIndex, index } from "drizzle-orm/sqlite-core";

/** A form of one process; `key` is unique within the process. Versions hold the schemas. */
export const forms = sqliteTable(
  "forms",
  {
    id: text("id").primaryKey(),
    processKey: text("process_key").notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    /** The version tasks lock when they are created; null until a version is published (then the latest is used). */
    publishedVersionId: text("published_version_id"),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("forms_process_key_uq").on(t.processKey, t.key)],
);

/** Every save of a form is a new immutable version; tasks keep the id of the version they were created with. */
export const formVersions = sqliteTable(
  "form_versions",
  {
    /** The versionId (UUID) exposed to clients and stored on tasks. */
    id: text("id").primaryKey(),
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    num: integer("num").notNull(),
    /** The schema as JSON text, exactly as validated at save. */
    schema: text("schema").notNull(),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("form_versions_form_num_uq").on(t.formId, t.num), index("form_versions_form_idx").on(t.formId)],
);
