import { duration, FeelDate, FeelDateTime, FeelDuration, FeelTime, parseTime, toFeel } from "feelin";
import { DmnEvaluationError } from "./errors";
import type { TypeDef } from "./types";
import { isContextValue, parseFeelDate, parseFeelDateTime } from "../feel";

type Base =
  | "number"
  | "string"
  | "boolean"
  | "date"
  | "time"
  | "date and time"
  | "dt duration"
  | "ym duration"
  | "duration"
  | "context"
  | "list"
  | "any";

// Spellings seen in DMN 1.1 to 1.5 files and in Camunda 7 models.
const BASES: Record<string, Base> = {
  number: "number",
  integer: "number",
  long: "number",
  double: "number",
  decimal: "number",
  int: "number",
  string: "string",
  boolean: "boolean",
  date: "date",
  time: "time",
  "date and time": "date and time",
  datetime: "date and time",
  "days and time duration": "dt duration",
  daytimeduration: "dt duration",
  "years and months duration": "ym duration",
  yearmonthduration: "ym duration",
  duration: "duration",
  context: "context",
  list: "list",
  any: "any",
};

/** The FEEL base type a typeRef spells, or undefined when it names an itemDefinition (or nothing we know). */
export function baseType(typeRef: string | undefined): Base | undefined {
  if (!typeRef) return undefined;
  const bare = typeRef
    .replace(/^(feel|FEEL):/, "")
    .trim()
    .toLowerCase();
  return BASES[bare];
}

export interface CoerceWhere {
  label: string;
  decision?: string;
}

type Types = Record<string, TypeDef>;
/** The converted value, or why the value does not conform (a message naming the path of the offending part). */
type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

interface Opts {
  types: Types;
  /** A caller's JSON value: temporals may come as ISO strings (FEEL has no other way to receive them over JSON). */
  json: boolean;
}

/**
 * A caller's value (an inputData) converted to its declared type (DMN 1.5 §10.3.2.9.4, plus ISO strings for
 * temporals); a value that does not conform is the caller's mistake: an evaluation error naming the input.
 */
export function coerceInput(value: unknown, typeRef: string | undefined, types: Types, where: CoerceWhere): unknown {
  const out = convert(value, typeRef, { types, json: true }, where.label);
  if (!out.ok) throw new DmnEvaluationError(out.message, { decision: where.decision });
  return out.value;
}

/**
 * A value the model computed, converted to a declared type (a decision's variable, a boxed expression's typeRef, a
 * context entry, a function parameter): after the implicit conversions, a value that does not conform is null
 * (DMN 1.5 §10.3.2.9.4).
 */
export function conformOrNull(value: unknown, typeRef: string | undefined, types: Types): unknown {
  if (value === undefined || value === null) return null;
  if (!typeRef) return value;
  const out = convert(value, typeRef, { types, json: false }, "value");
  return out.ok ? out.value : null;
}

/** Whether a typeRef names a type this engine checks (a base type or an item definition); others are `Any`. */
export function isKnownType(typeRef: string | undefined, types: Types): boolean {
  if (!typeRef) return false;
  const base = baseType(typeRef);
  if (base) return base !== "any";
  return listElement(typeRef) !== undefined || typeDef(typeRef, types) !== undefined;
}

function typeDef(typeRef: string, types: Types): TypeDef | undefined {
  return types[typeRef] ?? types[typeRef.replace(/^[^:]+:/, "")];
}

/** `list<T>` (FEEL type syntax) gives T. */
function listElement(typeRef: string): string | undefined {
  return /^\s*list\s*<(.+)>\s*$/.exec(typeRef)?.[1].trim();
}

function convert(value: unknown, typeRef: string | undefined, o: Opts, path: string): Outcome {
  if (value === undefined || value === null) return { ok: true, value: null };
  const base = baseType(typeRef);
  if (base) return toBase(value, base, typeRef!, o, path);
  const element = typeRef ? listElement(typeRef) : undefined;
  if (element !== undefined) return toList(value, (v, p) => convert(v, element, o, p), path);
  const type = typeRef ? typeDef(typeRef, o.types) : undefined;
  return type ? toDef(value, type, o, path) : { ok: true, value: toFeel(value) };
}

/** A list type: a single value becomes a singleton list (§10.3.2.9.4 "to singleton list"), then each item converts. */
function toList(value: unknown, item: (v: unknown, path: string) => Outcome, path: string): Outcome {
  const list = Array.isArray(value) ? value : [value];
  const out: unknown[] = [];
  for (let i = 0; i < list.length; i++) {
    const r = item(list[i], `${path}[${i}]`);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}

function toDef(value: unknown, type: TypeDef, o: Opts, path: string): Outcome {
  if (type.isCollection) {
    const element: TypeDef = { ...type, isCollection: false, allowedValues: undefined };
    return toList(value, (v, p) => (v === null ? { ok: true, value: null } : toDef(v, element, o, p)), path);
  }
  // "from singleton list": a one-item list where a non-list type is expected is its item
  if (Array.isArray(value) && value.length === 1 && !listLike(type.typeRef, o.types))
    return toDef(value[0] ?? null, type, o, path);
  if (value === null || value === undefined) return { ok: true, value: null };
  let out: Outcome;
  if (type.components) {
    if (!isContextValue(value)) return mismatch(value, type.name, path);
    const ctx: Record<string, unknown> = { ...value };
    for (const [name, comp] of Object.entries(type.components)) {
      // a context conforms when it has every component of the type (extra entries are allowed); JSON leaves nulls
      // out, so a caller's structure may omit a component (it reads as null)
      if (!Object.hasOwn(value, name)) {
        if (o.json) continue;
        return { ok: false, message: `'${path}' has no '${name}' (${type.name})` };
      }
      const r =
        value[name] === null ? { ok: true as const, value: null } : toDef(value[name], comp, o, `${path}.${name}`);
      if (!r.ok) return r;
      ctx[name] = r.value;
    }
    out = { ok: true, value: ctx };
  } else {
    out = convert(value, type.typeRef, o, path);
  }
  if (out.ok && type.allowedValues && out.value !== null && !type.allowedValues.test(out.value, {})) {
    return {
      ok: false,
      message: `'${path}' value ${describe(out.value)} is not among the allowed values ${type.allowedValues.text} of ${type.name}`,
    };
  }
  return out;
}

function listLike(typeRef: string | undefined, types: Types): boolean {
  if (!typeRef) return false;
  if (baseType(typeRef) === "list" || listElement(typeRef) !== undefined) return true;
  const t = typeDef(typeRef, types);
  return t !== undefined && (t.isCollection || (t.typeRef !== typeRef && listLike(t.typeRef, types)));
}

function toBase(value: unknown, base: Base, typeRef: string, o: Opts, path: string): Outcome {
  if (base === "any") return { ok: true, value: toFeel(value) };
  if (base === "list") return toList(value, (v) => ({ ok: true, value: toFeel(v) }), path);
  if (Array.isArray(value) && value.length === 1) return convert(value[0], typeRef, o, path);
  const v = toFeel(value);
  const str = o.json && typeof v === "string" ? v.trim() : undefined;
  let out: unknown;
  switch (base) {
    case "number":
      out = typeof v === "number" && Number.isFinite(v) ? v : undefined;
      break;
    case "string":
      out = typeof v === "string" ? v : undefined;
      break;
    case "boolean":
      out = typeof v === "boolean" ? v : undefined;
      break;
    case "date":
      out = v instanceof FeelDate ? v : str !== undefined ? parseFeelDate(str) : undefined;
      break;
    case "time":
      out = v instanceof FeelTime ? v : str !== undefined ? parseTime(str) : undefined;
      break;
    case "date and time":
      // a date where a date and time is expected is that date at midnight UTC (§10.3.2.9.4 "date to date and time")
      if (v instanceof FeelDateTime) out = v;
      else if (str !== undefined) out = DATE_ONLY.test(str) ? atMidnight(parseFeelDate(str)) : parseFeelDateTime(str);
      else out = v instanceof FeelDate ? atMidnight(v) : undefined;
      break;
    case "dt duration":
    case "ym duration":
    case "duration": {
      const d = v instanceof FeelDuration ? v : str !== undefined ? duration(str) : undefined;
      const kindOk = !d || base === "duration" || d.yearsMonths === (base === "ym duration") || isZero(d);
      out = kindOk ? d : undefined;
      break;
    }
    case "context":
      out = isContextValue(v) ? v : undefined;
      break;
  }
  return out === undefined || out === null ? mismatch(value, typeRef, path) : { ok: true, value: out };
}

const DATE_ONLY = /^-?\d{4,}-\d{2}-\d{2}$/;

function atMidnight(d: FeelDate | null): FeelDateTime | null {
  return d && parseFeelDateTime(`${d.iso}T00:00:00Z`);
}

// `P0D` parsed from JSON says nothing about its kind; a zero duration conforms to both duration types.
function isZero(d: FeelDuration): boolean {
  return d.value.sign === 0;
}

function mismatch(value: unknown, expected: string, path: string): Outcome {
  return { ok: false, message: `'${path}' expects ${expected}, got ${describe(value)}` };
}

/** A short, safe rendering of a value for error messages. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isContextValue(value)) return "a context";
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
