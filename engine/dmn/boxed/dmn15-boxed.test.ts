import { describe, expect, test } from "bun:test";
import { evaluateDecision } from "../drg/evaluate";
import { DmnParseError } from "../errors";
import { parseDmn } from "../model/parse";
import { definitions } from "../test-support";

// DMN 1.5 §8.4-8.7 (conditional, filter, for, some, every), read from documents in the DMN 1.5 namespace.
const DMN15 = "https://www.omg.org/spec/DMN/20230324/MODEL/";
const lit = (text: string) =>
  `<literalExpression><text>${text.replaceAll("<", "&lt;").replaceAll(">", "&gt;")}</text></literalExpression>`;
const run = async (logic: string, vars: Record<string, unknown> = {}) =>
  evaluateDecision(
    await parseDmn(definitions(`<decision id="d" name="d"><variable name="d"/>${logic}</decision>`, DMN15)),
    "d",
    vars,
  ).result;
const conditional = (cond: string, then: string, otherwise: string) =>
  `<conditional><if>${lit(cond)}</if><then>${lit(then)}</then><else>${lit(otherwise)}</else></conditional>`;

describe("DMN 1.5 boxed expressions", () => {
  test("a conditional gives then when if is true, else otherwise (false, null, non-boolean)", async () => {
    const c = conditional("x > 10", '"big"', '"small"');
    expect(await run(c, { x: 11 })).toBe("big");
    expect(await run(c, { x: 10 })).toBe("small");
    expect(await run(c, { x: null })).toBe("small");
    expect(await run(conditional('"yes"', "1", "2"))).toBe(2);
  });

  test("a conditional nests other boxed expressions in its branches", async () => {
    const nested = `<conditional><if>${lit("true")}</if><then><list>${lit("1")}${lit("2")}</list></then><else>${lit("null")}</else></conditional>`;
    expect(await run(nested)).toEqual([1, 2]);
  });

  test("a filter keeps the items whose match is true, item bound and a context item's entries visible", async () => {
    expect(await run(`<filter><in>${lit("[1, 5, 12, 7]")}</in><match>${lit("item > 4")}</match></filter>`)).toEqual([
      5, 12, 7,
    ]);
    const people = '[{name: "Ann", age: 30}, {name: "Bob", age: 17}]';
    expect(await run(`<filter><in>${lit(people)}</in><match>${lit("age >= 18")}</match></filter>`)).toEqual([
      { name: "Ann", age: 30 },
    ]);
    expect(await run(`<filter><in>${lit("3")}</in><match>${lit("item = 3")}</match></filter>`)).toEqual([3]);
    expect(await run(`<filter><in>${lit("null")}</in><match>${lit("true")}</match></filter>`)).toBeNull();
  });

  test("a for maps its return over the items under the iterator variable's name", async () => {
    const f = `<for iteratorVariable="n"><in>${lit("xs")}</in><return>${lit("n * n + offset")}</return></for>`;
    expect(await run(f, { xs: [1, 2, 3], offset: 1 })).toEqual([2, 5, 10]);
    expect(await run(f, { xs: [], offset: 1 })).toEqual([]);
  });

  test("some and every test their satisfies over the items", async () => {
    const q = (kind: string, cond: string) =>
      `<${kind} iteratorVariable="p"><in>${lit("[80, 11, 110]")}</in><satisfies>${lit(cond)}</satisfies></${kind}>`;
    expect(await run(q("some", "p > 100"))).toBe(true);
    expect(await run(q("some", "p > 200"))).toBe(false);
    expect(await run(q("every", "p > 10"))).toBe(true);
    expect(await run(q("every", "p > 50"))).toBe(false);
  });

  test("a boxed expression with a missing part is refused at parse time, naming the part", async () => {
    const broken = `<conditional><if>${lit("true")}</if><then>${lit("1")}</then></conditional>`;
    const p = parseDmn(definitions(`<decision id="d" name="d">${broken}</decision>`, DMN15));
    expect(p).rejects.toThrow(DmnParseError);
    expect(p).rejects.toThrow(/<else>/);
  });
});
