import type { FieldError } from "../errors";

export const FIELD_TYPES = [
  "text",
  "longtext",
  "number",
  "integer",
  "boolean",
  "date",
  "datetime",
  "email",
  "url",
  "select",
  "multiselect",
  "reference",
  "json",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One declared field of a collection. */
export interface FieldDef {
  name: string;
  type: FieldType;
  label?: string;
  required: boolean;
  unique: boolean;
  /** Allowed values of select and multiselect. */
  options?: string[];
  /** Target collection of a reference field. */
  collectionId?: string;
  /** Longest accepted string for text (default 1000) and longtext (default 1,000,000). */
  maxLength?: number;
}

/** Types written to the index side table, hence filterable and sortable. */
export const INDEXED_TYPES: ReadonlySet<FieldType> = new Set([
  "text",
  "number",
  "integer",
  "boolean",
  "date",
  "datetime",
  "email",
  "url",
  "select",
  "multiselect",
  "reference",
]);
/** Types that can serve as a unique field or a bulk keyField: one scalar value per record. */
export const KEYABLE_TYPES: ReadonlySet<FieldType> = new Set([
  "text",
  "number",
  "integer",
  "date",
  "datetime",
  "email",
  "url",
  "select",
  "reference",
]);

export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_FIELDS = 200;

/** Validates and normalizes a field list; problems are reported as `fields[i].<key>` field errors. */
export function parseFieldDefs(raw: unknown): { fields: FieldDef[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fields: FieldDef[] = [];
  if (!Array.isArray(raw) || raw.length === 0) {
    return { fields, errors: [{ field: "fields", message: "must be a non-empty array of field definitions" }] };
  }
  if (raw.length > MAX_FIELDS) errors.push({ field: "fields", message: `at most ${MAX_FIELDS} fields` });
  const seen = new Set<string>();
  raw.forEach((f: unknown, i) => {
    const at = (k: string) => `fields[${i}].${k}`;
    const err = (k: string, message: string) => errors.push({ field: at(k), message });
    if (!f || typeof f !== "object" || Array.isArray(f))
      return void errors.push({ field: `fields[${i}]`, message: "must be an object" });
    const d = f as Record<string, unknown>;
    const name = d.name;
    if (typeof name !== "string" || !FIELD_NAME.test(name)) {
      err("name", "must start with a letter or underscore and hold only letters, digits and underscores (at most 64)");
    } else if (seen.has(name)) err("name", `duplicate field name '${name}'`);
    else seen.add(name);
    const type = d.type as FieldType;
    if (!FIELD_TYPES.includes(type))
      return void err("type", `unknown type '${String(d.type)}'; accepted: ${FIELD_TYPES.join(", ")}`);
    const def: FieldDef = { name: String(name), type, required: d.required === true, unique: d.unique === true };
    for (const flag of ["required", "unique"] as const) {
      if (d[flag] !== undefined && typeof d[flag] !== "boolean") err(flag, "must be a boolean");
    }
    if (d.label !== undefined) {
      if (typeof d.label !== "string") err("label", "must be a string");
      else def.label = d.label;
    }
    if (def.unique && !KEYABLE_TYPES.has(type)) err("unique", `a ${type} field cannot be unique`);
    if (type === "select" || type === "multiselect") {
      const o = d.options;
      if (!Array.isArray(o) || o.length === 0 || !o.every((x) => typeof x === "string" && x.length > 0)) {
        err("options", "must be a non-empty array of strings");
      } else if (new Set(o).size !== o.length) err("options", "must not repeat a value");
      else def.options = o as string[];
    } else if (d.options !== undefined) err("options", `only select and multiselect fields take options`);
    if (type === "reference") {
      if (typeof d.collectionId !== "string" || !d.collectionId)
        err("collectionId", "a reference field names its target collection");
      else def.collectionId = d.collectionId;
    }
    if (d.maxLength !== undefined) {
      if (type !== "text" && type !== "longtext") err("maxLength", "only text and longtext fields take maxLength");
      else if (!Number.isInteger(d.maxLength) || (d.maxLength as number) < 1)
        err("maxLength", "must be a positive integer");
      else def.maxLength = d.maxLength as number;
    }
    fields.push(def);
  });
  return { fields, errors };
}

/** The stored JSON, always produced by parseFieldDefs. */
export const readFieldDefs = (json: string): FieldDef[] => JSON.parse(json) as FieldDef[];
