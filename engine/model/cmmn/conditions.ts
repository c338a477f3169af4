import { ExpressionError } from "../../errors";
import { compileExpression } from "../../expressions";

/**
 * Flowable case models read variables through `caseInstance.getVariable('x')` / `planItemInstance.getVariable('x')` /
 * `variables:get(x)`; the shared JUEL subset has no method calls, so these idioms become the plain variable name.
 */
export function normaliseCondition(src: string): string {
  return src
    .replace(/\b(?:caseInstance|planItemInstance|execution)\.getVariable\(\s*['"]([A-Za-z_$][\w$]*)['"]\s*\)/g, "$1")
    .replace(/\bvariables:get\(\s*([A-Za-z_$][\w$]*)\s*\)/g, "$1")
    .trim();
}

/** Checks that a condition compiles; returns the normalised source or a message naming the problem. */
export function checkCondition(src: string): { source: string } | { error: string } {
  const source = normaliseCondition(src);
  try {
    compileExpression(source);
    return { source };
  } catch (e) {
    return { error: e instanceof ExpressionError ? e.message : String(e) };
  }
}
