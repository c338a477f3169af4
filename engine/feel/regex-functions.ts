import { FeelFunction } from "feelin";
import { assertWork } from "../regex/linear";
import { guardCallable } from "./feelin-call";
import { assertStringSize } from "./value-size";
import { type ReplacementPart, xsdRegex, xsdReplacement } from "./xsd-regex";

// matches, replace and split with XPath regular expressions on RE2 (handed to feelin by builtin-scope.ts). A pattern
// RE2 cannot run, or a match over the work budget, fails the evaluation with the reason (guardCallable carries the
// throw through feelin); an invalid pattern or argument is null, as DMN says.

const str = (v: unknown): v is string => typeof v === "string";
const optFlags = (f: unknown): f is string | undefined | null => f === undefined || f === null || str(f);

const matches = (input: unknown, pattern: unknown, flags?: unknown) => {
  if (!str(input) || !str(pattern) || !optFlags(flags)) return null;
  const r = xsdRegex(pattern, flags ?? "");
  if (!r) return null;
  assertWork(r, input.length);
  return r.re.test(input);
};

function expand(parts: ReplacementPart[], groups: (string | undefined)[]): string {
  let s = "";
  for (const p of parts) s += typeof p === "string" ? p : (groups[p] ?? "");
  return s;
}

const replace = (input: unknown, pattern: unknown, replacement: unknown, flags?: unknown) => {
  if (!str(input) || !str(pattern) || !str(replacement) || !optFlags(flags)) return null;
  const r = xsdRegex(pattern, flags ?? "");
  if (!r) return null;
  const parts = flags?.includes("q") ? [replacement] : xsdReplacement(replacement, r.re.groupCount());
  // XPath refuses a pattern that matches the empty string (FORX0003).
  if (!parts || r.re.test("")) return null;
  assertWork(r, input.length);
  let size = input.length;
  return r.re.matcher(input).replaceAll((...args: unknown[]) => {
    const groups = args.slice(0, r.re.groupCount() + 1) as (string | undefined)[];
    const by = expand(parts, groups);
    size += by.length - (groups[0]?.length ?? 0);
    assertStringSize(size, "replace");
    return by;
  });
};

const split = (input: unknown, delimiter: unknown, flags?: unknown) => {
  if (!str(input) || !str(delimiter) || !optFlags(flags)) return null;
  const r = xsdRegex(delimiter, flags ?? "");
  if (!r || r.re.test("")) return null;
  assertWork(r, input.length);
  return input === "" ? [] : r.re.split(input, -1);
};

export const REGEX_FUNCTIONS: Record<string, FeelFunction> = {
  matches: new FeelFunction(guardCallable(matches), ["input", "pattern", "flags"]),
  replace: new FeelFunction(guardCallable(replace), ["input", "pattern", "replacement", "flags"]),
  split: new FeelFunction(guardCallable(split), ["string", "delimiter", "flags"]),
};
