import type { FieldError } from "../errors";
import { INDEXED_TYPES, type FieldDef } from "./fields";

/** A value as written to the index side table (SQLite keeps its type: text, integer or real). */
export type IndexValue = string | number;
export interface CheckedRecord {
  values: Record<string, unknown>;
  index: [field: string, v: IndexValue][];
}
/** Answers whether `recordId` exists in collection `collectionId` (reference fields). */
export type RefChecker = (collectionId: string, recordId: string) => boolean;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

function validUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** Checks one value against its field; returns the stored form or an error message. */
function checkValue(f: FieldDef, v: unknown, refs: RefChecker): { ok: unknown } | { error: string } {
  const str = (max: number) =>
    typeof v !== "string"
      ? { error: "must be a string" }
      : v.length > max
        ? { error: `at most ${max} characters` }
        : { ok: v };
  switch (f.type) {
    case "text":
      return str(f.maxLength ?? 1000);
    case "longtext":
      return str(f.maxLength ?? 1_000_000);
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? { ok: v } : { error: "must be a number" };
    case "integer":
      return Number.isSafeInteger(v) ? { ok: v } : { error: "must be an integer" };
    case "boolean":
      return typeof v === "boolean" ? { ok: v } : { error: "must be true or false" };
    case "date":
      return typeof v === "string" && validDate(v) ? { ok: v } : { error: "must be a date YYYY-MM-DD" };
    case "datetime": {
      // Stored in UTC ISO form so that text order is time order in filters and sorts.
      if (typeof v !== "string" || !DATETIME.test(v) || Number.isNaN(Date.parse(v))) {
        return { error: "must be an ISO 8601 date-time with a time zone, e.g. 2024-05-01T10:00:00Z" };
      }
      return { ok: new Date(v).toISOString() };
    }
    case "email":
      return typeof v === "string" && v.length <= 320 && EMAIL.test(v)
        ? { ok: v }
        : { error: "must be an email address" };
    case "url":
      return typeof v === "string" && v.length <= 2048 && validUrl(v)
        ? { ok: v }
        : { error: "must be an http or https URL" };
    case "select":
      return typeof v === "string" && f.options!.includes(v)
        ? { ok: v }
        : { error: `must be one of: ${f.options!.join(", ")}` };
    case "multiselect": {
      if (!Array.isArray(v) || !v.every((x) => typeof x === "string" && f.options!.includes(x))) {
        return { error: `must be an array of: ${f.options!.join(", ")}` };
      }
      return { ok: [...new Set(v)] };
    }
    case "reference":
      if (typeof v !== "string" || !v) return { error: "must be a record id" };
      return refs(f.collectionId!, v) ? { ok: v } : { error: `no record ${v} in the referenced collection` };
    case "json":
      return { ok: v };
  }
}

/**
 * Validates a record's values against the collection's fields. `prefix` names the record in field errors
 * (`values` for one record, `records[17]` in a bulk load). Null counts as absent.
 */
export function checkRecord(
  fields: FieldDef[],
  input: unknown,
  prefix: string,
  refs: RefChecker,
  errors: FieldError[],
): CheckedRecord | null {
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    errors.push({ field: prefix, message: "must be an object of field values" });
    return null;
  }
  const raw = input as Record<string, unknown>;
  const before = errors.length;
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const k of Object.keys(raw)) {
    if (!byName.has(k)) errors.push({ field: `${prefix}.${k}`, message: "is not a field of this collection" });
  }
  const values: Record<string, unknown> = {};
  const index: [string, IndexValue][] = [];
  for (const f of fields) {
    const v = raw[f.name];
    if (v === undefined || v === null) {
      if (f.required) errors.push({ field: `${prefix}.${f.name}`, message: "is required" });
      continue;
    }
    const r = checkValue(f, v, refs);
    if ("error" in r) {
      errors.push({ field: `${prefix}.${f.name}`, message: r.error });
      continue;
    }
    values[f.name] = r.ok;
    if (!INDEXED_TYPES.has(f.type)) continue;
    if (f.type === "multiselect") for (const o of r.ok as string[]) index.push([f.name, o]);
    else index.push([f.name, f.type === "boolean" ? (r.ok ? 1 : 0) : (r.ok as IndexValue)]);
  }
  return errors.length === before ? { values, index } : null;
}
