/** Field types a `fields` schema may use; anything else is refused at save with this list in the message. */
export const FIELD_TYPES = [
  "text",
  "textarea",
  "number",
  "integer",
  "decimal",
  "currency",
  "email",
  "phone",
  "date",
  "datetime",
  "time",
  "checkbox",
  "select",
  "radio",
  "multiselect",
  "file",
  "user",
  "hidden",
  "section",
  "heading",
  "table",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Layout types hold no value of their own, so they are never required. */
export const LAYOUT_TYPES: ReadonlySet<string> = new Set(["section", "heading"]);
/** Types a table column may not use (a column holds one value per row). */
export const NON_COLUMN_TYPES: ReadonlySet<string> = new Set(["section", "heading", "table"]);

export const isFieldType = (t: unknown): t is FieldType =>
  typeof t === "string" && (FIELD_TYPES as readonly string[]).includes(t);
