import { ExpressionError } from "../errors";
import { compileExpression as compileFeelExpression, toJsonValue } from "../feel";
import { compileJuel } from "./juel";
import { ExpressionLimitError } from "./juel-limits";

export { ExpressionLimitError } from "./juel-limits";

/** What an expression may read: single variables (JUEL) or all visible variables at once (FEEL). */
export interface VarScope {
  get(name: string): unknown;
  all(): Record<string, unknown>;
}

/** A compiled expression; evaluation may throw ExpressionError on data it cannot handle. */
export type Evaluator = (scope: VarScope) => unknown;

/**
 * FEEL through the one FEEL module. This is the BPMN/CMMN edge: the engine turns a failing expression into an
 * incident, so the error values of engine/feel become ExpressionErrors here; results become plain JSON values.
 */
function compileFeel(src: string): Evaluator {
  const c = compileFeelExpression(src);
  if (!c.ok)
    throw c.error.kind === "limit" ? new ExpressionLimitError(c.error.message) : new ExpressionError(c.error.message);
  const f = c.value;
  return (scope) => {
    const r = f(scope.all());
    if (r.ok) return toJsonValue(r.value);
    throw new ExpressionError(`FEEL expression '${src}' failed: ${r.error.reason}`);
  };
}

const cache = new Map<string, Evaluator>();

function cached(key: string, make: () => Evaluator): Evaluator {
  let e = cache.get(key);
  if (!e) {
    e = make();
    if (cache.size > 20_000) cache.clear();
    cache.set(key, e);
  }
  return e;
}

function hasJuel(src: string): boolean {
  return src.includes("${") || src.includes("#{");
}

/** Compiles a condition or value expression: `${...}` is JUEL, a leading `=` or anything else is FEEL. */
export function compileExpression(src: string): Evaluator {
  const s = src.trim();
  return cached(`x:${s}`, () => {
    if (hasJuel(s)) {
      const c = compileJuel(s);
      return (scope) => c((n) => scope.get(n));
    }
    return compileFeel(s.startsWith("=") ? s.slice(1) : s);
  });
}

/** Compiles an attribute that is usually a literal (assignee, timer duration): plain text stays text. */
export function compileValue(src: string): Evaluator {
  const s = src.trim();
  return cached(`v:${s}`, () => {
    if (hasJuel(s)) {
      const c = compileJuel(s);
      return (scope) => c((n) => scope.get(n));
    }
    if (s.startsWith("=")) return compileFeel(s.slice(1));
    return () => s;
  });
}

/** Compiles a FEEL script body (script tasks accept FEEL only). */
export function compileFeelScript(src: string): Evaluator {
  const s = src.trim();
  return cached(`f:${s}`, () => compileFeel(s.startsWith("=") ? s.slice(1) : s));
}

/** Truthiness of a condition result the way Flowable reads it: booleans, and the strings "true"/"false". */
export function isTrue(v: unknown): boolean {
  return v === true || v === "true";
}
