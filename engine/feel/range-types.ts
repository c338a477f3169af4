import { FeelDate, FeelDateTime, FeelDuration, FeelRange, FeelTime } from "feelin";

// `x instance of range<T>` (DMN 1.5 §10.3.2.3.10), which feelin's grammar cannot read. source-text.ts writes the type
// as a name `__range_of_<T>`; feelin answers `instance of` an unknown name with JavaScript's `instanceof` on the
// value that name has, so each such name is bound here to an object whose Symbol.hasInstance is the FEEL test: a
// range whose (non-null) endpoints are of type T.

export const ELEMENT_TESTS: Record<string, (v: unknown) => boolean> = {
  Any: () => true,
  number: (v) => typeof v === "number",
  string: (v) => typeof v === "string",
  boolean: (v) => typeof v === "boolean",
  date: (v) => v instanceof FeelDate,
  time: (v) => v instanceof FeelTime,
  "date and time": (v) => v instanceof FeelDateTime,
  duration: (v) => v instanceof FeelDuration,
  "days and time duration": (v) => v instanceof FeelDuration && !v.yearsMonths,
  "years and months duration": (v) => v instanceof FeelDuration && v.yearsMonths,
};

const nameOf = (type: string) => `__range_of_${type.replace(/\s+/g, "_")}`;

/** The name standing for `range<type>`, or undefined when `type` is not one of FEEL's simple types. */
export function rangeTypeName(type: string): string | undefined {
  const t = type.trim().replace(/\s+/g, " ");
  return ELEMENT_TESTS[t] ? nameOf(t) : undefined;
}

export const RANGE_TYPES: Record<string, unknown> = {};
for (const [type, test] of Object.entries(ELEMENT_TESTS)) {
  const target = () => {};
  Object.defineProperty(target, Symbol.hasInstance, {
    value: (v: unknown) =>
      v instanceof FeelRange && [v.start, v.end].every((e) => e === null || e === undefined || test(e)),
  });
  RANGE_TYPES[nameOf(type)] = target;
}
