import { FeelFunction } from "feelin";
import { xsdRegExp, xsdReplacement } from "./xsd-regex";

// matches, replace and split with XPath regular expressions (handed to feelin by builtin-scope.ts).

const str = (v: unknown): v is string => typeof v === "string";
const optFlags = (f: unknown): f is string | undefined | null => f === undefined || f === null || str(f);

const matches = (input: unknown, pattern: unknown, flags?: unknown) => {
  if (!str(input) || !str(pattern) || !optFlags(flags)) return null;
  return xsdRegExp(pattern, flags ?? "")?.test(input) ?? null;
};

const replace = (input: unknown, pattern: unknown, replacement: unknown, flags?: unknown) => {
  if (!str(input) || !str(pattern) || !str(replacement) || !optFlags(flags)) return null;
  const re = xsdRegExp(pattern, flags ?? "", "g");
  const by = flags?.includes("q") ? replacement.replaceAll("$", "$$$$") : xsdReplacement(replacement);
  // XPath refuses a pattern that matches the empty string (FORX0003).
  if (!re || by === undefined || re.test("")) return null;
  re.lastIndex = 0;
  return input.replace(re, by);
};

const split = (input: unknown, delimiter: unknown, flags?: unknown) => {
  if (!str(input) || !str(delimiter) || !optFlags(flags)) return null;
  const re = xsdRegExp(delimiter, flags ?? "", "g");
  if (!re || re.test("")) return null;
  return input === "" ? [] : input.split(re);
};

export const REGEX_FUNCTIONS: Record<string, FeelFunction> = {
  matches: new FeelFunction(matches, ["input", "pattern", "flags"]),
  replace: new FeelFunction(replace, ["input", "pattern", "replacement", "flags"]),
  split: new FeelFunction(split, ["string", "delimiter", "flags"]),
};
