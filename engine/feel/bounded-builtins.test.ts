import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { REGEX_LIMITS } from "../regex/linear";
import { compileExpression } from "./index";
import { runFeel as run } from "./test-support";
import { setFeelTimeLimit } from "./time-limit";
import { FEEL_SIZE_LIMITS } from "./value-size";

function failure(text: string, vars: Record<string, unknown> = {}): string {
  const c = compileExpression(text);
  if (!c.ok) throw new Error(c.error.message);
  const r = c.value(vars);
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.value)}`);
  return r.error.reason;
}

/** The reason a text is refused when it compiles (a literal pattern the linear-time engine cannot run). */
function refusal(text: string): string {
  const c = compileExpression(text);
  if (c.ok) throw new Error(`expected a refusal of ${text}`);
  expect(c.error.kind).toBe("limit");
  return c.error.reason;
}

describe("FEEL regular expressions run in linear time (RE2)", () => {
  test("a pattern that backtracks exponentially in JavaScript answers at once", () => {
    // 60 characters: a backtracking engine would take longer than the test runner waits.
    expect(run('matches(x, "^(a+)+$")', { x: `${"a".repeat(60)}!` })).toBe(false);
    expect(run('replace(x, "(a|aa)+$", "-")', { x: `${"a".repeat(60)}b` })).toBe(`${"a".repeat(60)}b`);
    expect(run('matches(x, "^(a+)+$")', { x: "a".repeat(60) })).toBe(true);
    // Named without a call, the built-in is still ours (feelin's own would backtrack).
    expect(run('{f: matches}.f(x, "^(a+)+$")', { x: `${"a".repeat(60)}!` })).toBe(false);
  });

  test("a back-reference to a literal group is matched; to any other group it is refused with the reason", () => {
    expect(run('matches("aA", "(a)\\\\1", "i")')).toBe(true);
    expect(run('matches("abab", "^(ab)\\\\1$")')).toBe(true);
    expect(run('matches("abac", "^(ab)\\\\1$")')).toBe(false);
    // A literal pattern is refused when the text compiles (at deploy); a pattern from a variable when it runs.
    expect(refusal('matches("aa", "(a+)\\\\1")')).toContain("back-reference \\1");
    expect(refusal('replace(input: "aa", pattern: "(a+)\\\\1", replacement: "")')).toContain("linear-time engine");
    expect(failure("matches(x, p)", { x: "aa", p: "(a+)\\1" })).toContain("linear-time engine");
    // With the q flag the pattern is plain text: nothing to refuse.
    expect(run('matches("(a+)\\\\1", "(a+)\\\\1", "q")')).toBe(true);
  });

  test("lookaround is refused with the reason, not answered as a match", () => {
    expect(refusal('matches("ab", "a(?=b)")')).toContain("lookaround is not supported");
    expect(refusal('split("ab", "(?<!x)a")')).toContain("lookaround is not supported");
    expect(failure('replace("ab", p, "c")', { p: "(?<!x)a" })).toContain("lookaround is not supported");
  });

  test("a match whose work (input x pattern states) is over the budget is refused naming the limit", () => {
    const x = "a".repeat(10_000);
    expect(failure('matches(x, "[a-z]{1000}")', { x })).toContain("work limit");
    expect(run('matches(x, "^a+$")', { x })).toBe(true);
    expect(REGEX_LIMITS.work).toBeGreaterThan(0);
  });

  test("a pattern over the length or state limits is refused naming the limit", () => {
    expect(failure("matches(x, p)", { x: "a", p: "a".repeat(REGEX_LIMITS.patternChars + 1) })).toContain(
      "characters long, over the limit",
    );
    expect(refusal('matches("a", "[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}")')).toContain(
      "states, over the limit",
    );
  });

  test("split keeps empty strings between and after delimiters, and never returns capture groups", () => {
    expect(run('split("a,b,,", ",")')).toEqual(["a", "b", "", ""]);
    expect(run('split("a1b2c", "([0-9])")')).toEqual(["a", "b", "c"]);
    expect(run('split("😀,x", ",")')).toEqual(["😀", "x"]);
  });

  test("replace numbers groups as XPath does: $10 is group 1 then 0 when there are fewer than ten groups", () => {
    expect(run('replace("abc", "(b)", "[$10]")')).toBe("a[b0]c");
    expect(run('replace("abc", "b", "[$0$0]")')).toBe("a[bb]c");
  });
});

describe("FEEL built-ins are bounded in size", () => {
  // Only the size cap may answer here, not the evaluation-time limit on a loaded machine.
  let previous = 0;
  beforeAll(() => {
    previous = setFeelTimeLimit(60_000);
  });
  afterAll(() => setFeelTimeLimit(previous));

  test("string join over the string cap is refused before it builds the string", () => {
    const x = "x".repeat(300_000);
    const reason = failure("string length(string join(for i in 1..1000 return x))", { x });
    expect(reason).toContain("string join");
    expect(reason).toContain(FEEL_SIZE_LIMITS.stringChars.toLocaleString("en"));
    expect(run("string length(string join(for i in 1..10 return x))", { x })).toBe(3_000_000);
  });

  test("string() of a huge list and replace growing past the cap fail naming the cap", () => {
    const x = "x".repeat(300_000);
    expect(failure("string(for i in 1..100 return x)", { x })).toContain("string()");
    expect(
      failure('replace(x, "x", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy")', { x }),
    ).toContain("replace");
  });
});
