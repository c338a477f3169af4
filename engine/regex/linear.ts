import { RE2JS } from "re2js";

// Every regular expression a tenant writes (FEEL matches/replace/split, mail rules) runs on RE2 (re2js): matching
// time is linear in the input, so no pattern can backtrack (issue 28). Linear is not free: the automaton simulation
// costs about (input length x pattern states), so one match is refused when that product exceeds a work budget, and
// the pattern itself is bounded in length and states.

/** The regular-expression limits (docs/limits.md). */
export const REGEX_LIMITS = {
  /** Characters of one pattern. */
  patternChars: 10_000,
  /** Instructions of one compiled pattern (`[a-z]{1000}` has about 1,000). */
  programSize: 5_000,
  /**
   * Input characters x (pattern instructions + PER_CHAR) of one match, replace or split. Measured on the 2-core
   * machine under eight sessions' load: 34-160 ns per unit (splitting 1 MiB on "," took 514 ms: each match costs
   * too, hence PER_CHAR), so a call stays within about 100-600 ms loaded, a tenth of it quiet.
   */
  work: 4_000_000,
};

/** A pattern the linear engine refuses: backtracking syntax (backreferences, lookaround) or over a limit. */
export class RegexRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegexRefusedError";
  }
}

export interface LinearRegex {
  re: RE2JS;
  /** Instructions of the compiled program: the per-character cost of matching. */
  size: number;
}

const BACKTRACKING = /invalid escape sequence: `\\[1-9]|unsupported Perl syntax: `\(\?(?:=|!|<=|<!)/;

function programSize(re: RE2JS): number {
  // re2js keeps the compiled program on the instance; its instruction count is the matching cost per character.
  const prog = (re as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog?.inst;
  return Array.isArray(prog) ? prog.length : 0;
}

const cache = new Map<string, LinearRegex | string>();

/**
 * Compiles RE2 syntax with RE2JS flags. Returns the regex, or a string saying why the pattern is invalid (callers
 * that treat an invalid pattern as a value, like FEEL's null, use it); throws RegexRefusedError when the pattern
 * needs backtracking or is over a limit.
 */
export function compileLinear(source: string, flags = 0): LinearRegex | string {
  if (source.length > REGEX_LIMITS.patternChars)
    throw new RegexRefusedError(
      `the regular expression is ${source.length} characters long, over the limit of ${REGEX_LIMITS.patternChars}`,
    );
  const key = `${flags}\u0000${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out: LinearRegex | string;
  try {
    const re = RE2JS.compile(source, flags);
    out = { re, size: programSize(re) };
  } catch (e) {
    const message = (e as Error).message;
    if (BACKTRACKING.test(message))
      throw new RegexRefusedError(
        `backreferences and lookaround are not supported: regular expressions run on a linear-time engine (RE2 syntax); ${message}`,
      );
    out = message;
  }
  if (typeof out !== "string" && out.size > REGEX_LIMITS.programSize)
    throw new RegexRefusedError(
      `the regular expression compiles to ${out.size} states, over the limit of ${REGEX_LIMITS.programSize}`,
    );
  if (cache.size >= 500) cache.delete(cache.keys().next().value as string);
  cache.set(key, out);
  return out;
}

/** What one input character costs besides the pattern's states (the scan itself, the matches it yields). */
const PER_CHAR = 10;

/** Refuses one match whose cost (input length x (pattern states + PER_CHAR)) exceeds the work budget. */
export function assertWork(r: LinearRegex, inputLength: number): void {
  const cost = inputLength * (r.size + PER_CHAR);
  if (cost > REGEX_LIMITS.work)
    throw new RegexRefusedError(
      `matching a pattern of ${r.size} states against ${inputLength} characters exceeds the regular-expression work limit of ${REGEX_LIMITS.work.toLocaleString("en")} (characters x (states + ${PER_CHAR}))`,
    );
}

/** A JavaScript-syntax pattern (mail rules) in RE2 syntax: named groups, \uXXXX escapes. */
export function fromJavaScriptSyntax(source: string): string {
  return RE2JS.translateRegExp(source);
}
