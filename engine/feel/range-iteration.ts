import { evaluate, FeelDate, FeelFunction, FeelRange } from "feelin";

// Iterating a range (`for i in a..b`, `some`, `every`), DMN 1.5 §10.3.2.14: ranges of numbers and of dates count by
// one (a day for dates), upwards or downwards; any other range cannot be iterated and gives null (feelin also
// enumerates single-character string ranges, and throws on dates). Installed once per process on feelin's class,
// before time-limit.ts wraps the same method with its deadline checks (which then cover the dates counted here).

const map = FeelRange.prototype.map;
FeelRange.prototype.map = function <T>(this: FeelRange, fn: (v: unknown) => T): T[] {
  const { start, end } = this;
  if (start instanceof FeelDate && end instanceof FeelDate) {
    const out: T[] = [];
    for (const d of days(this, start, end)) out.push(fn(d));
    return out;
  }
  if (typeof start === "string" || typeof end === "string") return null as unknown as T[];
  return map.call(this, fn) as T[];
};

function* days(range: FeelRange, start: FeelDate, end: FeelDate): Generator<FeelDate> {
  const from = start.unwrap();
  const to = end.unwrap();
  const step = from.until(to).sign < 0 ? -1 : 1;
  for (let d = from; ; d = d.add({ days: step })) {
    const last = d.equals(to);
    if (!(d.equals(from) && !range["start included"]) && !(last && !range["end included"])) yield new FeelDate(d);
    if (last) return;
  }
}

/** Whether a range runs upwards (start ≤ end, or an end is null); a descending range literal is not a range. */
export function isAscending(v: FeelRange): boolean {
  if (v.start === null || v.end === null) return true;
  // one comparison of two values (feelin's, for every endpoint type), not under the evaluation deadline
  try {
    return evaluate("a <= b", { a: v.start, b: v.end }).value === true;
  } catch {
    return false;
  }
}

// An interval literal iterated by for/some/every (expression-rewrite.ts wraps it): `[2..1]` is not a range (its start
// is past its end), so iterating it is null, as range("[2..1]") is; `2..1` without brackets counts down.
const ascending = (v: unknown) => (v instanceof FeelRange && !isAscending(v) ? null : v);

export const ITERATION_FUNCTIONS: Record<string, FeelFunction> = {
  __ascending: new FeelFunction(ascending, ["range"]),
};
