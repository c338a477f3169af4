import { expect, test } from "bun:test";
import { compileExpression } from "./expression";

const run = (text: string) => {
  const c = compileExpression(text);
  if (!c.ok) throw new Error(c.error.message);
  return { r: c.value({}) };
};

test.each([
  ["a range of a billion elements", "count(for x in 1..1000000000 return x)"],
  ["a cartesian product of ranges", "count(for a in 1..2000, b in 1..2000, c in 1..2000 return 0)"],
  ["exponential recursion", "{f: function(n) if n = 0 then 0 else f(n - 1) + f(n - 1), r: f(40)}.r"],
  ["sorting with a FEEL comparator, nested", "count(for i in 1..100000 return sort([3,2,1], function(a, b) a < b))"],
])("%s stops at the evaluation-time limit", (_label, text) => {
  // The message names the limit that stopped it; how long the stop takes is a speed figure (bench:noisy-neighbour).
  const { r } = run(text);
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.message).toMatch(/evaluation-time limit of 80 ms/);
});

test("ordinary expressions, ranges and recursion within the limit still evaluate", () => {
  expect(run("count(for x in 1..1000 return x)").r).toEqual({ ok: true, value: 1000 });
  expect(run("{f: function(n) if n = 0 then 0 else n + f(n - 1), r: f(50)}.r").r).toEqual({ ok: true, value: 1275 });
  // After a stopped evaluation the next one starts with a fresh deadline.
  run("count(for x in 1..1000000000 return x)");
  expect(run("sum([1, 2, 3])").r).toEqual({ ok: true, value: 6 });
});
