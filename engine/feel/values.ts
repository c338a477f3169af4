import {
  FeelDate,
  FeelDateTime,
  FeelDuration,
  type FeelFunction,
  type FeelRange,
  FeelTime,
  isFunction,
  isRange,
} from "feelin";

/** A FEEL temporal value (each carries a canonical `iso` form that drives its equality). */
export type FeelTemporalValue = FeelDate | FeelTime | FeelDateTime | FeelDuration;

export function isTemporalValue(v: unknown): v is FeelTemporalValue {
  return v instanceof FeelDate || v instanceof FeelTime || v instanceof FeelDateTime || v instanceof FeelDuration;
}

/** Plain objects are FEEL contexts; class instances (temporals, ranges, functions) are not. */
export function isContextValue(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** DMN equality: numbers and temporals by value, lists and contexts deeply; `tolerance` is relative, for the TCK's decimal results. */
export function feelEquals(a: unknown, b: unknown, tolerance = 0): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  if (typeof a === "number" && typeof b === "number") {
    if (tolerance === 0) return false;
    return Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b), 1);
  }
  if (isTemporalValue(a) && isTemporalValue(b)) return a.constructor === b.constructor && temporalEquals(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => feelEquals(x, b[i], tolerance));
  }
  if (isContextValue(a) && isContextValue(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && feelEquals(a[k], b[k], tolerance));
  }
  return false;
}

function temporalEquals(a: FeelTemporalValue, b: FeelTemporalValue): boolean {
  if (a instanceof FeelDuration && b instanceof FeelDuration) {
    // PT24H and P1D are the same days-and-time duration; compare by total seconds within a kind.
    if (a.yearsMonths !== b.yearsMonths) return false;
    return a.yearsMonths ? months(a) === months(b) : seconds(a) === seconds(b);
  }
  return a.iso === b.iso;
}

const months = (d: FeelDuration) => d.years * 12 + d.months;
const seconds = (d: FeelDuration) => ((d.days * 24 + d.hours) * 60 + d.minutes) * 60 + d.seconds;

/** Convert a FEEL value to plain JSON: temporals to ISO strings, ranges and functions to descriptive strings. */
export function toJsonValue(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (isTemporalValue(v)) return v.toString();
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (isRange(v)) return (v as FeelRange).toString();
  if (isFunction(v)) return `function(${(v as FeelFunction).parameterNames.join(", ")})`;
  if (isContextValue(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toJsonValue(x);
    return out;
  }
  return null;
}
