import "./builtin-bounds";
import { INTERVAL_FUNCTIONS } from "./interval-functions";
import { LIST_FUNCTIONS } from "./list-functions";
import { INSTANCE_OF_FUNCTIONS } from "./structural-types";
import { ITERATION_FUNCTIONS } from "./range-iteration";
import { RANGE_TYPES } from "./range-types";
import { REGEX_FUNCTIONS } from "./regex-functions";
import { TEMPORAL_FUNCTIONS } from "./temporal-functions";
import { UNARY_COMPARISON_FUNCTIONS } from "./unary-comparison";
import { VALUE_FUNCTIONS } from "./value-functions";

// Built-ins where feelin departs from DMN 1.5 are replaced by handing ours to feelin as variables of the same names
// (a variable shadows a built-in there), only for the texts that call them. A caller's own variable of that name wins.
const OVERRIDES = {
  ...REGEX_FUNCTIONS,
  ...VALUE_FUNCTIONS,
  ...TEMPORAL_FUNCTIONS,
  ...RANGE_TYPES,
  ...INTERVAL_FUNCTIONS,
  ...LIST_FUNCTIONS,
  ...UNARY_COMPARISON_FUNCTIONS,
  ...ITERATION_FUNCTIONS,
  ...INSTANCE_OF_FUNCTIONS,
};
// A bare name counts for the regex and value built-ins, not only a call: `{f: matches}.f(x, p)` must reach our
// linear-time matches, never feelin's. date() and date and time() only when their argument is not a literal with an
// ordinary year (feelin folds those). time() not where it ends `date and time(` (a variable named time would split
// a name written over two lines, `date and\n time(...)`, into `date and time(...)`'s parts).
const CALLS =
  /\b__(?:range_of_|unary_comparison|ascending|instance_of|conforms)|\b(?:before|after|meets|met\s+by|overlaps(?:\s+(?:before|after))?|includes|during|starts|started\s+by|finishes|finished\s+by|coincides|list\s+(?:replace|contains)|index\s+of)\s*\(|\b(?:matches|replace|split|range|years\s+and\s+months\s+duration)\b|\bduration\s*\((?!\s*"[^".]*")|(?<!\band\s+)\btime\s*\(|\bdate(?:\s+and\s+time)?\s*\((?!\s*"\d{4}-(?![^"]*T24))/;

/** For a FEEL text that calls one of them, the variables with our built-ins added; else undefined. */
export function builtinScope(text: string): ((vars: Record<string, unknown>) => Record<string, unknown>) | undefined {
  return CALLS.test(text) ? (vars) => ({ ...OVERRIDES, ...vars }) : undefined;
}
