// JUEL value semantics: emptiness, numeric coercion, equality, ordering, truthiness, property access.
import { ExpressionError } from "../errors";
export function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v as object).length === 0;
  return false;
}

export function num(v: unknown): number {
  if (typeof v === "number") return v;
  if (v === null || v === undefined || v === "") return 0;
  const n = Number(v);
  if (Number.isNaN(n)) throw new ExpressionError(`cannot coerce '${String(v)}' to a number`);
  return n;
}

export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === "number" || typeof b === "number") return num(a) === num(b);
  if (typeof a === "boolean" || typeof b === "boolean") return String(a) === String(b);
  return String(a) === String(b);
}

export function cmp(a: unknown, b: unknown): number {
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  const x = num(a),
    y = num(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function truthy(v: unknown): boolean {
  if (typeof v === "string") return v === "true";
  return Boolean(v);
}

export function prop(obj: unknown, key: unknown): unknown {
  if (obj === null || obj === undefined) return null;
  if (Array.isArray(obj) && key === "size") return obj.length;
  if (typeof obj === "object" && Object.hasOwn(obj, String(key))) return (obj as Record<string, unknown>)[String(key)];
  return null;
}
