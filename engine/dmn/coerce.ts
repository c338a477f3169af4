import {
  duration,
  FeelDate,
  FeelDateTime,
  FeelDuration,
  FeelTime,
  parseDate,
  parseDateTime,
  parseTime,
  toFeel,
} from "feelin";
import { DmnEvaluationError } from "./errors";
import type { TypeDef } from "./types";
import { isContextValue } from "../feel";

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

/** Convert a JSON (or FEEL) value to the declared type: e.g. a string declared as a date becomes a FEEL date; refuse what cannot be. */
export function coerceValue(
  value: unknown,
  typeRef: string | undefined,
  types: Record<string, TypeDef>,
  where: CoerceWhere,
): unknown {
  if (value === undefined || value === null) return null;
  const base = baseType(typeRef);
  if (base) return toBase(value, base, typeRef!, where);
  const type = typeRef ? (types[typeRef] ?? types[typeRef.replace(/^[^:]+:/, "")]) : undefined;
  return type ? coerceToDef(value, type, types, where) : toFeel(value);
}

function coerceToDef(value: unknown, type: TypeDef, types: Record<string, TypeDef>, where: CoerceWhere): unknown {
  if (value === undefined || value === null) return null;
  if (type.isCollection) {
    if (!Array.isArray(value)) throw mismatch(value, `a list of ${type.name}`, where);
    const element = { ...type, isCollection: false, allowedValues: undefined };
    return value.map((v, i) => coerceToDef(v, element, types, { ...where, label: `${where.label}[${i}]` }));
  }
  let out: unknown;
  if (type.components) {
    if (!isContextValue(value)) throw mismatch(value, type.name, where);
    const ctx: Record<string, unknown> = { ...value };
    for (const [name, comp] of Object.entries(type.components)) {
      if (Object.hasOwn(value, name))
        ctx[name] = coerceToDef(value[name], comp, types, { ...where, label: `${where.label}.${name}` });
    }
    out = ctx;
  } else {
    out = coerceValue(value, type.typeRef, types, where);
  }
  if (type.allowedValues && out !== null && !type.allowedValues.test(out, {})) {
    throw new DmnEvaluationError(
      `'${where.label}' value ${describe(out)} is not among the allowed values ${type.allowedValues.text} of ${type.name}`,
      { decision: where.decision },
    );
  }
  return out;
}

function toBase(value: unknown, base: Base, typeRef: string, where: CoerceWhere): unknown {
  const v = toFeel(value);
  const str = typeof v === "string" ? v.trim() : undefined;
  switch (base) {
    case "number":
      if (typeof v === "number" && Number.isFinite(v)) return v;
      break;
    case "string":
      if (typeof v === "string") return v;
      break;
    case "boolean":
      if (typeof v === "boolean") return v;
      break;
    case "date":
      if (v instanceof FeelDate) return v;
      if (str !== undefined) return parseDate(str) ?? fail();
      break;
    case "time":
      if (v instanceof FeelTime) return v;
      if (str !== undefined) return parseTime(str) ?? fail();
      break;
    case "date and time":
      if (v instanceof FeelDateTime) return v;
      if (str !== undefined) return parseDateTime(str) ?? fail();
      break;
    case "dt duration":
    case "ym duration":
    case "duration":
      if (v instanceof FeelDuration) return v;
      if (str !== undefined) return duration(str) ?? fail();
      break;
    case "context":
      if (isContextValue(v)) return v;
      break;
    case "list":
      if (Array.isArray(v)) return v;
      break;
    case "any":
      return v;
  }
  return fail();
  function fail(): never {
    throw mismatch(value, typeRef, where);
  }
}

function mismatch(value: unknown, expected: string, where: CoerceWhere): DmnEvaluationError {
  return new DmnEvaluationError(`'${where.label}' expects ${expected}, got ${describe(value)}`, {
    decision: where.decision,
  });
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
