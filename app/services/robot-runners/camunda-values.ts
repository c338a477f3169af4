import { BadRequestError } from "../errors";

/**
 * Camunda 7's typed variable values (`{type, value, valueInfo}`) both ways, so its external-task workers run unchanged:
 * what a worker sends is stored as the plain value the engine's expressions read, and what it fetches comes back
 * typed, as Camunda's REST API answers. A value that is not of the typed shape passes as it is (our own runners send
 * plain JSON).
 */
export interface TypedValue {
  type: string;
  value: unknown;
  valueInfo: Record<string, unknown>;
}

const SHAPE_KEYS = new Set(["type", "value", "valueInfo"]);
const INT32 = 2 ** 31;
const INT16 = 2 ** 15;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `{type: "...", value?, valueInfo?}` and nothing else: a Camunda typed value. */
export const isTypedValue = (v: unknown): v is Partial<TypedValue> & { type: string } =>
  isPlainObject(v) && typeof v.type === "string" && Object.keys(v).every((k) => SHAPE_KEYS.has(k));

type Field = { field: string; message: string };

function integer(v: unknown, min: number, max: number): number | undefined {
  const n = typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

// Camunda writes dates as `yyyy-MM-dd'T'HH:mm:ss.SSSZ` (`+0000`); stored here as ISO 8601 in UTC.
function date(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const iso = v.trim().replace(/([+-]\d\d)(\d\d)$/, "$1:$2");
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?$/.test(iso)) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function json(v: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof v !== "string") return { ok: true, value: v ?? null };
  try {
    return { ok: true, value: JSON.parse(v) };
  } catch {
    return { ok: false };
  }
}

/** One typed value to the plain value stored, or the reason it is refused. */
function fromTyped(t: Partial<TypedValue> & { type: string }): { value: unknown } | { error: string } {
  const v = t.value;
  const bad = (what: string) => ({ error: `a ${t.type} value must be ${what}` });
  switch (t.type.toLowerCase()) {
    case "null":
      return { value: null };
    case "string":
      return v === null || v === undefined ? { value: null } : typeof v === "string" ? { value: v } : bad("a string");
    case "boolean":
      return v === null || v === undefined
        ? { value: null }
        : typeof v === "boolean"
          ? { value: v }
          : bad("true or false");
    case "short":
    case "integer":
    case "long": {
      if (v === null || v === undefined) return { value: null };
      const limit = { short: INT16, integer: INT32, long: 2 ** 53 }[t.type.toLowerCase() as "short"];
      const n = integer(v, -limit, limit - 1);
      return n === undefined ? bad(`an integer from ${-limit} to ${limit - 1}`) : { value: n };
    }
    case "double": {
      if (v === null || v === undefined) return { value: null };
      const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
      return typeof n === "number" && Number.isFinite(n) ? { value: n } : bad("a finite number");
    }
    case "date": {
      if (v === null || v === undefined) return { value: null };
      const d = date(v);
      return d === undefined ? bad("a date as yyyy-MM-ddTHH:mm:ss.SSS+0000") : { value: d };
    }
    case "json": {
      const j = json(v);
      return j.ok ? { value: j.value } : bad("JSON text");
    }
    case "object": {
      const format = String(t.valueInfo?.serializationDataFormat ?? "application/json");
      if (format !== "application/json")
        return {
          error: `an Object value serialised as '${format}' cannot be read here: only application/json (Java serialisation and XML are refused)`,
        };
      const j = json(v);
      return j.ok ? { value: j.value } : bad("JSON text (serializationDataFormat application/json)");
    }
    case "bytes":
    case "file":
      return {
        error: `${t.type} variables are not supported: store the content as an attachment or in the CMS and pass its id`,
      };
    default:
      return {
        error: `unknown Camunda type '${t.type}' (String, Integer, Long, Short, Double, Boolean, Date, Json, Object, Null)`,
      };
  }
}

/**
 * Variables from a worker: typed values converted, plain ones kept; every refused variable is named in the 400's
 * fieldErrors (`variables.<name>`), and nothing is stored.
 */
export function fromCamundaVariables(vars: Record<string, unknown> | undefined, at = "variables") {
  if (!vars) return undefined;
  const out: Record<string, unknown> = {};
  const errors: Field[] = [];
  for (const [name, v] of Object.entries(vars)) {
    if (!isTypedValue(v)) {
      out[name] = v;
      continue;
    }
    const r = fromTyped(v);
    if ("error" in r) errors.push({ field: `${at}.${name}`, message: r.error });
    else out[name] = r.value;
  }
  if (errors.length)
    throw new BadRequestError(`Variables refused: ${errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`, errors);
  return out;
}

/** A stored value as Camunda types it: numbers by size, objects and lists as Json text, null as Null. */
export function toTypedValue(v: unknown): TypedValue {
  const typed = (type: string, value: unknown): TypedValue => ({ type, value, valueInfo: {} });
  if (v === null || v === undefined) return typed("Null", null);
  if (typeof v === "string") return typed("String", v);
  if (typeof v === "boolean") return typed("Boolean", v);
  if (typeof v === "number") {
    if (!Number.isInteger(v)) return typed("Double", v);
    return typed(v >= -INT32 && v < INT32 ? "Integer" : "Long", v);
  }
  return typed("Json", JSON.stringify(v));
}

/** The variables a worker fetches, typed; `names` (the topic's `variables`) keeps only those asked for. */
export function toCamundaVariables(vars: Record<string, unknown>, names?: string[]): Record<string, TypedValue> {
  const out: Record<string, TypedValue> = {};
  for (const [k, v] of Object.entries(vars)) if (!names || names.includes(k)) out[k] = toTypedValue(v);
  return out;
}
