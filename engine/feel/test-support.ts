// Helpers of the unit tests of this folder (not used at runtime).
import { compileExpression } from "./expression";

/** Compile and evaluate a FEEL expression, throwing its syntax or evaluation error. */
export function runFeel(text: string, vars: Record<string, unknown> = {}): unknown {
  const c = compileExpression(text);
  if (!c.ok) throw new Error(c.error.message);
  const r = c.value(vars);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
