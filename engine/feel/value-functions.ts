import { duration, FeelDate, FeelDateTime, FeelFunction, FeelRange } from "feelin";
import { feelinEvaluate } from "./feelin-call";

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

// A range literal's text: interval or comparison with literal endpoints only (no names).
const RANGE_TEXT = /^\s*(?:[[\](]|<=?|>=?)/;

/** range("[1..10)"): the range a string holds, or null when it does not hold one with literal endpoints. */
function rangeOf(text: unknown) {
  if (typeof text !== "string" || !RANGE_TEXT.test(text)) return null;
  const trimmed = text.trim();
  const r = feelinEvaluate(/^[<>]/.test(trimmed) ? `(${trimmed})` : trimmed, {});
  if (!r.ok) return null;
  const v = r.value;
  if (!(v instanceof FeelRange) || (v.start === null && v.end === null)) return null;
  return v;
}

export const VALUE_FUNCTIONS: Record<string, FeelFunction> = {
  range: new FeelFunction(rangeOf, ["from"]),
  "years and months duration": new FeelFunction(yearsAndMonths, ["from", "to"]),
};
