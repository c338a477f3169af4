import { evaluate, type FeelFunction, parseExpression, parseUnaryTests, unaryTest } from "feelin";
import { DmnError, DmnEvaluationError, DmnParseError } from "../errors";
import type { Vars } from "../types";

type Tree = ReturnType<typeof parseExpression>;

/** Throw a DmnParseError naming `element` if `text` is not valid FEEL (names in `scope` may contain spaces or operators). */
export function checkSyntax(
  text: string,
  kind: "expression" | "unaryTests",
  scope: readonly string[],
  element: string,
): void {
  const ctx: Record<string, null> = {};
  for (const n of scope) ctx[n] = null;
  let tree: Tree;
  try {
    tree = kind === "expression" ? parseExpression(text, ctx, undefined) : parseUnaryTests(text, ctx, undefined);
  } catch (e) {
    throw new DmnParseError(`invalid FEEL ${kind} '${text}': ${(e as Error).message}`, element);
  }
  let errorAt = -1;
  tree.iterate({
    enter(node) {
      if (errorAt < 0 && node.type.isError) errorAt = node.from;
      return errorAt < 0;
    },
  });
  if (errorAt >= 0) {
    throw new DmnParseError(`invalid FEEL ${kind} '${text}' at offset ${errorAt}`, element);
  }
}

// feelin turns an exception thrown by an invoked function into a null result. Our functions (BKMs,
// decision services, function definitions) park their typed error here instead, and the feelin call
// that invoked them rethrows it once feelin returns. Evaluation is synchronous, so one slot suffices.
let parked: DmnError | undefined;

/** Wrap a function that FEEL code may invoke so that its DmnErrors survive feelin. */
export function guardCallable<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => unknown {
  return (...args: A) => {
    try {
      return fn(...args);
    } catch (e) {
      parked ??= wrap(e, "");
      return null;
    }
  };
}

function unpark(): void {
  if (parked) {
    const e = parked;
    parked = undefined;
    throw e;
  }
}

/** Evaluate a FEEL expression with feelin, turning anything it throws into a DmnEvaluationError. */
export function feelinEvaluate(text: string, vars: Vars): unknown {
  let v: unknown;
  try {
    v = evaluate(text, vars).value;
  } catch (e) {
    parked = undefined;
    throw wrap(e, text);
  }
  unpark();
  return v === undefined ? null : v;
}

/** Evaluate FEEL unary tests against `input` with feelin; null counts as no match. */
export function feelinUnaryTest(text: string, input: unknown, vars: Vars): boolean {
  let v: unknown;
  try {
    v = unaryTest(text, { ...vars, "?": input }).value;
  } catch (e) {
    parked = undefined;
    throw wrap(e, text);
  }
  unpark();
  return v === true;
}

function wrap(e: unknown, text: string): DmnError {
  if (e instanceof DmnError) return e;
  return new DmnEvaluationError(`FEEL evaluation failed: ${(e as Error)?.message ?? String(e)}`, { expression: text });
}

/** Call a FEEL function value directly (not from FEEL code) with positional arguments, surfacing any parked error. */
export function callFeelFunction(fn: FeelFunction, args: unknown[]): unknown {
  let v: unknown;
  try {
    v = fn.invoke(args);
  } catch (e) {
    parked = undefined;
    throw wrap(e, "");
  }
  unpark();
  // feelin signals a bad call with a marker object rather than an exception.
  if (v !== null && typeof v === "object" && v.constructor?.name === "InvocationFailure") {
    throw new DmnEvaluationError("function invocation failed: parameters do not match");
  }
  return v === undefined ? null : v;
}
