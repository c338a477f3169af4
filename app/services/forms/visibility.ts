import { compileExpression } from "../../../engine/feel";

/** Longest visibleIf condition accepted; conditions are small predicates, and a bound keeps evaluation cheap. */
export const MAX_CONDITION_LENGTH = 1000;

/** Syntax problem of a FEEL condition, or null when it parses (feelin's parser is tolerant and marks errors in the tree). */
export function conditionSyntaxError(expression: string): string | null {
  if (expression.trim() === "") return "is empty";
  if (expression.length > MAX_CONDITION_LENGTH) return `is longer than ${MAX_CONDITION_LENGTH} characters`;
  return compileExpression(expression).ok ? null : "is not a valid FEEL expression";
}

/**
 * Whether a field with this `visibleIf` condition is shown for `values`. Only a condition evaluating to true shows the
 * field; false or null hides it. A condition that fails to evaluate leaves the field visible, so a broken rule can never
 * silently drop a required field.
 */
export function isVisible(condition: unknown, values: Record<string, unknown>): boolean {
  if (typeof condition !== "string" || condition.trim() === "") return true;
  const c = compileExpression(condition);
  const r = c.ok ? c.value(values) : undefined;
  return r?.ok ? r.value === true : true;
}
