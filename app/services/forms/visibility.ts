import { evaluate, parseExpression } from "feelin";

/** Longest visibleIf condition accepted; conditions are small predicates, and a bound keeps evaluation cheap. */
export const MAX_CONDITION_LENGTH = 1000;

/** Syntax problem of a FEEL condition, or null when it parses (feelin's parser is tolerant and marks errors in the tree). */
export function conditionSyntaxError(expression: string): string | null {
  if (expression.trim() === "") return "is empty";
  if (expression.length > MAX_CONDITION_LENGTH) return `is longer than ${MAX_CONDITION_LENGTH} characters`;
  let bad = false;
  try {
    parseExpression(expression, {}, undefined).iterate({
      enter: (n) => {
        if (n.type.isError) bad = true;
      },
    });
  } catch {
    bad = true;
  }
  return bad ? "is not a valid FEEL expression" : null;
}

/**
 * Whether a field with this `visibleIf` condition is shown for `values`. Only a condition evaluating to true shows the
 * field; false or null hides it. A condition that fails to evaluate leaves the field visible, so a broken rule can never
 * silently drop a required field.
 */
export function isVisible(condition: unknown, values: Record<string, unknown>): boolean {
  if (typeof condition !== "string" || condition.trim() === "") return true;
  try {
    return evaluate(condition, values).value === true;
  } catch {
    return true;
  }
}
