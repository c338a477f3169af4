import { FeelFunction } from "feelin";
import { feelinEvaluate } from "./feelin-call";

// A comparison written in unary-test syntax as a value, `(< 10)`, `(>= x)`, `(= 10)`, `(!= 10)` (DMN 1.5 §10.3.2.7).
// feelin makes the first four a range and the last two a bare test function, so `(< 10) = (null..10)` holds there and
// `(= 10) = (= 10)` does not; the TCK (0068) says the opposite: such a value remembers how it was written, equals only
// one written alike, and is never equal to an interval literal. expression-rewrite.ts turns each such parenthesised
// test in an expression into a call of `__unary_comparison(op, endpoint)`; the values it returns behave exactly as
// feelin's (a range is a range for `in`, the interval functions and `instance of`; `= e` and `!= e` stay tests),
// carrying the operator and endpoint for equality.ts.

export type UnaryComparison = { operator: string; endpoint: unknown };
const MARK = Symbol("unary comparison");

/** The operator and endpoint a value was written with, when it is a unary comparison. */
export function unaryComparisonOf(v: unknown): UnaryComparison | undefined {
  return v !== null && (typeof v === "object" || typeof v === "function")
    ? (v as { [MARK]?: UnaryComparison })[MARK]
    : undefined;
}

const OPERATORS = new Set(["<", "<=", ">", ">=", "=", "!="]);

function unaryComparison(operator: unknown, endpoint: unknown): unknown {
  if (typeof operator !== "string" || !OPERATORS.has(operator)) return null;
  // feelin builds the value (a fresh range or test function per evaluation), which is then marked
  const r = feelinEvaluate(`(${operator} e)`, { e: endpoint ?? null });
  if (!r.ok || r.value === null || (typeof r.value !== "object" && typeof r.value !== "function")) return null;
  Object.defineProperty(r.value, MARK, { value: { operator, endpoint: endpoint ?? null }, enumerable: false });
  return r.value;
}

export const UNARY_COMPARISON_FUNCTIONS: Record<string, FeelFunction> = {
  __unary_comparison: new FeelFunction(unaryComparison, ["operator", "endpoint"]),
};
