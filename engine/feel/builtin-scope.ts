import "./builtin-bounds";
import { REGEX_FUNCTIONS } from "./regex-functions";
import { VALUE_FUNCTIONS } from "./value-functions";

// Built-ins where feelin departs from DMN 1.5 are replaced by handing ours to feelin as variables of the same names
// (a variable shadows a built-in there), only for the texts that call them. A caller's own variable of that name wins.
const OVERRIDES = { ...REGEX_FUNCTIONS, ...VALUE_FUNCTIONS };
// A bare name counts, not only a call: `{f: matches}.f(x, p)` must reach our linear-time matches, never feelin's.
const CALLS = /\b(?:matches|replace|split|range|years\s+and\s+months\s+duration)\b/;

/** For a FEEL text that calls one of them, the variables with our built-ins added; else undefined. */
export function builtinScope(text: string): ((vars: Record<string, unknown>) => Record<string, unknown>) | undefined {
  return CALLS.test(text) ? (vars) => ({ ...OVERRIDES, ...vars }) : undefined;
}
