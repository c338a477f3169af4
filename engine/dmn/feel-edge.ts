import type { FeelFunction } from "feelin";
import {
  callFeelFunction as callFunction,
  compileExpression as compileFeelExpression,
  compileUnaryTests as compileFeelUnaryTests,
  type FeelError,
  type FeelResult,
} from "../feel";
import { DmnError, DmnEvaluationError, DmnParseError } from "./errors";
import type { UnaryTest, Vars } from "./types";

export { guardCallable } from "../feel";

/** A compiled FEEL expression as DMN evaluates it: errors thrown as DmnErrors. */
export type CompiledFeel = (vars: Vars) => unknown;

// DMN's edge of the one FEEL module: the evaluator reports failures by throwing typed DmnErrors, so the error values
// of engine/feel become exceptions here, and nowhere else in the DMN engine.

function toDmnError(e: FeelError): DmnError {
  if (e.cause instanceof DmnError) return e.cause;
  return new DmnEvaluationError(e.message, { expression: e.expression });
}

function unwrap<T>(r: FeelResult<T>): T {
  if (r.ok) return r.value;
  throw toDmnError(r.error);
}

/** Compile a FEEL expression; invalid FEEL throws a DmnParseError naming `element`. */
export function compileExpression(text: string | undefined, scope: readonly string[], element: string): CompiledFeel {
  const c = compileFeelExpression(text, scope);
  if (!c.ok) throw new DmnParseError(c.error.message, element);
  const f = c.value;
  return (vars) => unwrap(f(vars));
}

/** Compile FEEL unary tests; invalid FEEL throws a DmnParseError naming `element`. */
export function compileUnaryTests(text: string | undefined, scope: readonly string[], element: string): UnaryTest {
  const c = compileFeelUnaryTests(text, scope);
  if (!c.ok) throw new DmnParseError(c.error.message, element);
  const t = c.value;
  return (input, vars) => unwrap(t(input, vars));
}

/** Call a FEEL function value directly with positional arguments, throwing its error as a DmnError. */
export function callFeelFunction(fn: FeelFunction, args: unknown[]): unknown {
  return unwrap(callFunction(fn, args));
}
