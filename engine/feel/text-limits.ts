// The size of one expression's text, checked when it is compiled (at deploy for every model), before any parser sees
// it (issue 28): lezer-feel took 2-4 s over 20,000 nested parentheses, and the recursive JUEL parser and evaluator
// overflowed the stack on a 100,000-term condition. Shared by FEEL and JUEL.

export const EXPRESSION_LIMITS = {
  /** Characters of one expression (FEEL text, or one JUEL `${...}` template). */
  chars: 5_000,
  /** Nesting of brackets, ternaries and unary operators. */
  depth: 64,
};

export const lengthRefusal = (length: number): string | undefined =>
  length > EXPRESSION_LIMITS.chars
    ? `the expression is ${length.toLocaleString("en")} characters long, over the limit of ${EXPRESSION_LIMITS.chars.toLocaleString("en")} characters per expression`
    : undefined;

export const depthRefusal = (): string =>
  `the expression nests deeper than the limit of ${EXPRESSION_LIMITS.depth} levels`;

/** Why a FEEL text is over the limits (length, nesting of ( [ { outside string literals), or undefined. */
export function feelTextRefusal(text: string): string | undefined {
  const long = lengthRefusal(text.length);
  if (long) return long;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "(" || c === "[" || c === "{") {
      if (++depth > EXPRESSION_LIMITS.depth) return depthRefusal();
    } else if (c === ")" || c === "]" || c === "}") depth--;
  }
  return undefined;
}
