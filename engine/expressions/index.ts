import { compileJuel } from "./juel";
import { compileFeel } from "./feel";

/** What an expression may read: single variables (JUEL) or all visible variables at once (FEEL). */
export interface VarScope {
  get(name: string): unknown;
  all(): Record<string, unknown>;
}

/** A compiled expression; evaluation may throw ExpressionError on data it cannot handle. */
export type Evaluator = (scope: VarScope) => unknown;

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
    const f = compileFeel(s.startsWith("=") ? s.slice(1) : s);
    return (scope) => f(scope.all());
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
    if (s.startsWith("=")) {
      const f = compileFeel(s.slice(1));
      return (scope) => f(scope.all());
    }
    return () => s;
  });
}

/** Compiles a FEEL script body (script tasks accept FEEL only). */
export function compileFeelScript(src: string): Evaluator {
  const s = src.trim();
  return cached(`f:${s}`, () => {
    const f = compileFeel(s.startsWith("=") ? s.slice(1) : s);
    return (scope) => f(scope.all());
  });
}

/** Truthiness of a condition result the way Flowable reads it: booleans, and the strings "true"/"false". */
export function isTrue(v: unknown): boolean {
  return v === true || v === "true";
}
