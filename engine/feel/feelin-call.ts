import { evaluate, type FeelFunction, parseExpression, parseUnaryTests, unaryTest } from "feelin";
import { type FeelError, type FeelResult, fail, ok } from "./result";
import { regexLiteralRefusal } from "./regex-literals";
import { feelTextRefusal } from "./text-limits";
import { FeelTimeLimitError, underTimeLimit } from "./time-limit";

type Tree = ReturnType<typeof parseExpression>;
export type FeelKind = "expression" | "unaryTests";
type Vars = Record<string, unknown>;

/** The syntax error of `text`, or undefined when it is valid FEEL (names in `names` may contain spaces or operators). */
export function syntaxError(text: string, kind: FeelKind, names: readonly string[]): FeelError | undefined {
  const refusal = feelTextRefusal(text);
  // The text is not echoed: it is over a size limit.
  if (refusal) return { kind: "limit", message: `FEEL ${kind} refused: ${refusal}`, reason: refusal, expression: "" };
  const ctx: Record<string, null> = {};
  for (const n of names) ctx[n] = null;
  const syntax = (reason: string, message: string): FeelError => ({
    kind: "syntax",
    message,
    reason,
    expression: text,
  });
  let tree: Tree;
  try {
    tree = kind === "expression" ? parseExpression(text, ctx, undefined) : parseUnaryTests(text, ctx, undefined);
  } catch (e) {
    const reason = (e as Error).message;
    return syntax(reason, `invalid FEEL ${kind} '${text}': ${reason}`);
  }
  let errorAt = -1;
  tree.iterate({
    enter(node) {
      if (errorAt < 0 && node.type.isError) errorAt = node.from;
      return errorAt < 0;
    },
  });
  if (errorAt >= 0)
    return syntax(`syntax error at offset ${errorAt}`, `invalid FEEL ${kind} '${text}' at offset ${errorAt}`);
  const regex = regexLiteralRefusal(tree, text);
  if (regex) return { kind: "limit", message: `FEEL ${kind} refused: ${regex}`, reason: regex, expression: text };
  return undefined;
}

// feelin turns an exception thrown by an invoked function into a null result. Functions that must report a typed
// error (DMN BKMs, decision services, function definitions) park it here instead, and the feelin call that invoked
// them returns it as its error once feelin returns. Evaluation is synchronous, so one slot suffices.
let parked: { thrown: unknown } | undefined;

/** Wrap a function that FEEL code may invoke so that what it throws survives feelin as the call's error. */
export function guardCallable<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => unknown {
  return (...args: A) => {
    try {
      return fn(...args);
    } catch (e) {
      parked ??= { thrown: e };
      return null;
    }
  };
}

function evaluationError(thrown: unknown, text: string): FeelError {
  const reason = (thrown as Error)?.message ?? String(thrown);
  return { kind: "evaluation", message: `FEEL evaluation failed: ${reason}`, reason, expression: text, cause: thrown };
}

function settle<T>(run: () => T, text: string): FeelResult<T> {
  let v: T | FeelTimeLimitError;
  try {
    v = underTimeLimit(run);
  } catch (e) {
    parked = undefined;
    return fail(evaluationError(e, text));
  }
  if (v instanceof FeelTimeLimitError) {
    parked = undefined;
    return fail(evaluationError(v, text));
  }
  if (parked) {
    const p = parked;
    parked = undefined;
    return fail(evaluationError(p.thrown, ""));
  }
  return ok(v);
}

/** lezer-feel's normalisation of a name (spaces around operators, runs of spaces), which its name matching uses. */
function normalizeName(name: string): string {
  return name
    .replace(/\s*([./\-'+]|\*\*?)\s*/g, " $1 ")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/**
 * The variables an expression can name: those whose (normalised) name occurs in its (normalised) text. feelin parses
 * every expression again with the whole context so that names with spaces tokenize, and its parser indexes every
 * prefix of every variable name: quadratic in a name's length (a 1 MiB name took 23 s). A name that does not occur in
 * the text cannot be referenced by it, so leaving it out changes no result and bounds the work by the text.
 */
export function variablesNamedIn(text: string, vars: Vars): Vars {
  const norm = normalizeName(text);
  const limit = 3 * norm.length + 2; // normalisation can at most triple a name (one space each side of an operator)
  const out: Vars = {};
  for (const k of Object.keys(vars)) {
    if (k === "?" || (k.length <= limit && norm.includes(normalizeName(k)))) out[k] = vars[k];
  }
  return out;
}

/** Evaluate a FEEL expression with feelin; undefined becomes null. */
export function feelinEvaluate(text: string, vars: Vars): FeelResult<unknown> {
  const r = settle(() => evaluate(text, variablesNamedIn(text, vars)).value, text);
  // FEEL has no NaN: feelin computes `date * date` and the like as NaN where DMN says null
  return r.ok && (r.value === undefined || Number.isNaN(r.value)) ? ok(null) : r;
}

/** Evaluate FEEL unary tests against `input` with feelin; null counts as no match. */
export function feelinUnaryTest(text: string, input: unknown, vars: Vars): FeelResult<boolean> {
  const r = settle(() => unaryTest(text, { ...variablesNamedIn(text, vars), "?": input }).value, text);
  return r.ok ? ok(r.value === true) : r;
}

/** Call a FEEL function value directly (not from FEEL code) with positional arguments. */
export function callFeelFunction(fn: FeelFunction, args: unknown[]): FeelResult<unknown> {
  const r = settle(() => fn.invoke(args) as unknown, "");
  if (!r.ok) return r;
  const v = r.value;
  // feelin signals a bad call with a marker object rather than an exception.
  if (v !== null && typeof v === "object" && v.constructor?.name === "InvocationFailure") {
    const reason = "function invocation failed: parameters do not match";
    return fail({ kind: "evaluation", message: reason, reason, expression: "" });
  }
  return ok(v === undefined ? null : v);
}
