import { FeelDuration, FeelRange, parseExpression } from "feelin";
import { durationSize } from "./duration-math";
import { feelinEvaluate } from "./feelin-call";
import { type FeelResult, ok } from "./result";
import { unaryComparisonOf } from "./unary-comparison";
import { isContextValue } from "./values";

// FEEL `=` and `!=` (DMN 1.5 §10.3.2.2) where feelin's equality departs from it, for expressions whose top is such a
// comparison (compiled here; each side is compiled as its own expression, so it keeps the fast paths and decimals):
// - durations: a years-and-months and a days-and-time duration are never comparable (null: P1Y is not P365D), and
//   within a kind the sizes are compared exactly (feelin truncates to whole months or seconds, and reads a
//   duration above 180 days in months whatever its kind);
// - ranges: a comparison written in unary syntax, `(< 10)`, equals only one written alike (unary-comparison.ts),
//   never the interval `(null..10)`;
// - the same rules inside lists, contexts and range endpoints. Every other pair is feelin's answer.

type Vars = Record<string, unknown>;
type Compile = (text: string, names: readonly string[]) => FeelResult<(vars: Vars) => FeelResult<unknown>>;

/** A FEEL value feelin's equality gets wrong somewhere inside it. */
function special(v: unknown): boolean {
  if (v instanceof FeelDuration || v instanceof FeelRange || unaryComparisonOf(v)) return true;
  if (Array.isArray(v)) return v.some(special);
  return isContextValue(v) && Object.values(v).some(special);
}

/** FEEL equality: true, false, or null when the two values cannot be compared. */
export function feelEquality(a: unknown, b: unknown): boolean | null {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  const ux = unaryComparisonOf(x);
  const uy = unaryComparisonOf(y);
  if (ux || uy) return !!ux && !!uy && ux.operator === uy.operator && feelEquality(ux.endpoint, uy.endpoint) === true;
  if (x === null || y === null) return x === y;
  if (typeof x === typeof y && (typeof x === "string" || typeof x === "number" || typeof x === "boolean")) {
    return x === y;
  }
  if (!special(x) && !special(y)) return feelinEquality(x, y);
  // a list of fewer than two items compares as its item (feelin's rule, kept)
  const p = Array.isArray(x) && x.length < 2 ? (x[0] ?? null) : x;
  const q = Array.isArray(y) && y.length < 2 ? (y[0] ?? null) : y;
  if (p !== x || q !== y) return feelEquality(p, q);
  if (p instanceof FeelDuration && q instanceof FeelDuration) {
    return p.yearsMonths === q.yearsMonths ? durationSize(p).eq(durationSize(q)) : null;
  }
  if (p instanceof FeelRange && q instanceof FeelRange) {
    return (
      p["start included"] === q["start included"] &&
      p["end included"] === q["end included"] &&
      feelEquality(p.start, q.start) === true &&
      feelEquality(p.end, q.end) === true
    );
  }
  if (Array.isArray(p) && Array.isArray(q)) {
    return p.length === q.length && p.every((v, i) => feelEquality(v, q[i]) === true);
  }
  if (isContextValue(p) && isContextValue(q)) {
    const keys = Object.keys(p);
    return (
      keys.length === Object.keys(q).length &&
      keys.every((k) => Object.hasOwn(q, k) && feelEquality(p[k], q[k]) === true)
    );
  }
  return feelinEquality(p, q);
}

function feelinEquality(a: unknown, b: unknown): boolean | null {
  const r = feelinEvaluate("a = b", { a, b });
  return r.ok && typeof r.value === "boolean" ? r.value : null;
}

/**
 * The expression compiled here when its top is a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`): each side compiled as
 * its own expression (names and literals take the fast paths; feelin parsed the whole text on every evaluation), `=`
 * and `!=` with FEEL's equality above, the orderings of numbers and strings directly, others by feelin.
 */
export function compileEquality(
  src: string,
  names: readonly string[],
  compile: Compile,
): ((vars: Vars) => FeelResult<unknown>) | undefined {
  const ctx: Record<string, null> = {};
  for (const n of names) ctx[n] = null;
  const root = parseExpression(src, ctx, undefined).topNode.firstChild;
  if (root?.name !== "Comparison" || root.nextSibling) return undefined;
  const left = root.firstChild;
  const op = left?.nextSibling;
  const right = op?.nextSibling;
  if (!left || !right || right.nextSibling || op?.name !== "CompareOp") return undefined;
  const operator = src.slice(op.from, op.to);
  if (!COMPARISONS.has(operator)) return undefined;
  const a = compile(src.slice(left.from, left.to), names);
  const b = compile(src.slice(right.from, right.to), names);
  if (!a.ok || !b.ok) return undefined;
  const [l, r] = [a.value, b.value];
  return (vars) => {
    const x = l(vars);
    if (!x.ok) return x;
    const y = r(vars);
    if (!y.ok) return y;
    if (operator !== "=" && operator !== "!=") return ok(order(operator, x.value, y.value));
    const eq = feelEquality(x.value, y.value);
    return ok(operator === "=" || eq === null ? eq : !eq);
  };
}

const COMPARISONS = new Set(["=", "!=", "<", "<=", ">", ">="]);

/** `<`, `<=`, `>`, `>=`: numbers and strings here, null without an answer, every other pair feelin's. */
function order(op: string, a: unknown, b: unknown): boolean | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if ((typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string")) {
    return op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b;
  }
  const r = feelinEvaluate(`a ${op} b`, { a, b });
  return r.ok && typeof r.value === "boolean" ? r.value : null;
}
