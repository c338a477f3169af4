import { duration, FeelDate, FeelDateTime, FeelFunction, FeelRange } from "feelin";
import { feelinEvaluate } from "./feelin-call";
import { isAscending } from "./range-iteration";

// range() and years and months duration() as DMN 1.5 defines them, where feelin's differ (§10.3.4.7, §10.3.4.2).

type Dated = FeelDate | FeelDateTime;
const dated = (v: unknown): v is Dated => v instanceof FeelDate || v instanceof FeelDateTime;

/** Whole months from `from` to `to` (a month counts once its day of month is reached), as P..Y..M. */
function yearsAndMonths(from: unknown, to: unknown) {
  if (!dated(from) || !dated(to)) return null;
  let months = (to.year - from.year) * 12 + (to.month - from.month);
  if (months > 0 && to.day < from.day) months--;
  if (months < 0 && to.day > from.day) months++;
  const a = Math.abs(months);
  return duration(`${months < 0 ? "-" : ""}P${Math.floor(a / 12)}Y${a % 12}M`);
}

// range(from) reads a range literal (DMN 1.5 §10.3.4.7): interval brackets around two endpoint literals, each a number,
// a string, null, `@"..."` or a temporal constructor of a string literal. Unary forms (">= 10"), other expressions as
// endpoints, mixed endpoint types and descending ranges give null.
const ENDPOINT =
  '\\s*(-?(?:\\d+(?:\\.\\d+)?|\\.\\d+)|"(?:[^"\\\\]|\\\\.)*"|null|@"[^"]*"|(?:date and time|date|time|duration)\\s*\\(\\s*"[^"]*"\\s*\\))\\s*';
const RANGE_LITERAL = new RegExp(`^\\s*[[(\\]]${ENDPOINT}\\.\\.${ENDPOINT}[\\])[]\\s*$`);

/** range("[1..10)"): the range a string holds, or null when it does not hold a range literal. */
function rangeOf(text: unknown) {
  if (typeof text !== "string" || !RANGE_LITERAL.test(text)) return null;
  const r = feelinEvaluate(text.trim(), {});
  if (!r.ok) return null;
  const v = r.value;
  if (!(v instanceof FeelRange) || (v.start === null && v.end === null)) return null;
  return isAscending(v) ? v : null;
}

export const VALUE_FUNCTIONS: Record<string, FeelFunction> = {
  range: new FeelFunction(rangeOf, ["from"]),
  "years and months duration": new FeelFunction(yearsAndMonths, ["from", "to"]),
};
