import { describe, expect, test } from "bun:test";
import { runFeel as run } from "./test-support";
import { compileUnaryTests } from "./unary-tests";

describe("FEEL built-ins feelin lacks or reads otherwise", () => {
  test("the interval functions on points and ranges", () => {
    expect(run("during(5, [1..10])")).toBe(true);
    expect(run("during(1, (1..10])")).toBe(false);
    expect(run("during([4..6], [1..10])")).toBe(true);
    expect(run("during(point: 5, range: [1..10])")).toBe(true);
    expect(run("starts(1, [1..10])")).toBe(true);
    expect(run("started by([1..10], [1..5])")).toBe(true);
    expect(run("finishes(10, [1..10))")).toBe(false);
    expect(run("finished by([1..10], [5..10])")).toBe(true);
    expect(run("overlaps before([1..5], [3..8])")).toBe(true);
    expect(run("overlaps after([3..8], [1..5])")).toBe(true);
    expect(run("overlaps before([1..5), [5..8])")).toBe(false);
    expect(run("coincides([1..5], [1..5])")).toBe(true);
    expect(run('coincides(@"2020-01-01", @"2020-01-02")')).toBe(false);
    expect(run('during(@"2020-01-05", [@"2020-01-01"..@"2020-01-31"])')).toBe(true);
    expect(run("during(5, < 10)")).toBeNull(); // an open end cannot be compared
    expect(run('during("a", [1..10])')).toBeNull();
  });

  test("list replace by position (from either end) or by a two-parameter boolean match", () => {
    expect(run("list replace([1,2,3], 2, 9)")).toEqual([1, 9, 3]);
    expect(run("list replace([1,2,3], -1, 9)")).toEqual([1, 2, 9]);
    expect(run("list replace([1,2,3], -1.5, 9)")).toEqual([1, 2, 9]);
    expect(run("list replace([1,2,3], 4, 9)")).toBeNull();
    expect(run("list replace([1,2,3], 0, 9)")).toBeNull();
    expect(run("list replace([2,4], function(item, newItem) item = 2, 5)")).toEqual([5, 4]);
    expect(run("list replace(list: [2,4], newItem: 5, match: function(item, newItem) item > 2)")).toEqual([2, 5]);
    expect(run("list replace([2,4], function(item) item = 2, 5)")).toBeNull();
    expect(run("list replace([2,4], function(item, newItem) item, 5)")).toBeNull();
    expect(run("list replace(1, 1, 5)")).toEqual([5]);
  });

  test("for iterates date ranges by day, either way; string ranges are not iterable", () => {
    const days = (t: string) => (run(t) as unknown[]).map(String);
    expect(days('for d in @"1980-01-30"..@"1980-02-01" return d')).toEqual(["1980-01-30", "1980-01-31", "1980-02-01"]);
    expect(days('for d in @"1980-01-02"..@"1980-01-01" return d')).toEqual(["1980-01-02", "1980-01-01"]);
    expect(run('for i in "a".."c" return i')).toBeNull();
    expect(run("for i in 3..1 return i")).toEqual([3, 2, 1]);
  });
});

describe("unary tests made of expressions", () => {
  const passes = (text: string, input: unknown, vars: Record<string, unknown>) => {
    const t = compileUnaryTests(text, []);
    if (!t.ok) throw new Error(t.error.message);
    const r = t.value(input, vars);
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  test("a boolean value is compared with a boolean input, is the answer for others; other values by equality or membership", () => {
    const c = { aBoolean: false, aNumber: 5, yes: true };
    expect(passes("c.aBoolean", false, { c })).toBe(true);
    expect(passes("c.aBoolean", true, { c })).toBe(false);
    expect(passes("not(c.aBoolean)", true, { c })).toBe(true);
    expect(passes("not(c.aBoolean)", false, { c })).toBe(false);
    expect(passes("c.yes", false, { c })).toBe(false);
    expect(passes("c.aNumber > 3", 7, { c })).toBe(true); // a condition under a number column
    expect(passes("c.aNumber > 9", 7, { c })).toBe(false);
    expect(passes("c.aNumber", 5, { c })).toBe(true);
    expect(passes("c.aNumber", 6, { c })).toBe(false);
    expect(passes("x, y", 2, { x: 1, y: 2 })).toBe(true);
    expect(passes("list", 2, { list: [1, 2] })).toBe(true);
    expect(passes("? > limit", 3, { limit: 2 })).toBe(true); // naming ?, the expression is the test
  });
});
