import { evaluate } from "feelin";
import { ExpressionError } from "../errors";

/** A compiled FEEL expression: evaluates against a context object. */
export type FeelCompiled = (context: Record<string, unknown>) => unknown;

/** Turns feelin's wrapped temporal/range values into plain JSON-friendly values. */
function toPlain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(toPlain);
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (typeof (o as { toString?: unknown }).toString === "function" && o.constructor && o.constructor !== Object)
      return String(v);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) out[k] = toPlain(o[k]);
    return out;
  }
  if (typeof v === "function") return null;
  return v;
}

/** Checks FEEL syntax once (feelin throws on syntax errors) and returns an evaluator. */
export function compileFeel(src: string): FeelCompiled {
  try {
    evaluate(src, {});
  } catch (e) {
    throw new ExpressionError(`invalid FEEL expression '${src}': ${(e as Error).message}`);
  }
  return (context) => {
    try {
      return toPlain(evaluate(src, context).value);
    } catch (e) {
      throw new ExpressionError(`FEEL expression '${src}' failed: ${(e as Error).message}`);
    }
  };
}
