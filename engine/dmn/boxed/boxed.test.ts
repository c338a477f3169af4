import { describe, expect, test } from "bun:test";
import { evaluateDecision } from "../drg/evaluate";
import { DmnParseError } from "../errors";
import { parseDmn } from "../model/parse";
import { definitions } from "../test-support";

const decision = (logic: string, id = "d") =>
  definitions(`<decision id="${id}" name="${id}"><variable name="${id}"/>${logic}</decision>`);
const lit = (text: string) =>
  `<literalExpression><text>${text.replaceAll("<", "&lt;").replaceAll(">", "&gt;")}</text></literalExpression>`;
const entry = (name: string | undefined, value: string) =>
  `<contextEntry>${name ? `<variable name="${name}"/>` : ""}${value}</contextEntry>`;
const run = async (logic: string, vars: Record<string, unknown> = {}) =>
  evaluateDecision(await parseDmn(decision(logic)), "d", vars).result;

describe("boxed expressions", () => {
  test("a literal expression evaluates its FEEL text", async () => {
    expect(await run(lit("a * 2"), { a: 21 })).toBe(42);
  });

  test("a context gives its entries, each seeing the ones above", async () => {
    expect(await run(`<context>${entry("a", lit("1"))}${entry("b", lit("a + 1"))}</context>`)).toEqual({ a: 1, b: 2 });
  });

  test("a context with a final unnamed entry gives that entry's value", async () => {
    expect(
      await run(`<context>${entry("rate", lit("0.5"))}${entry(undefined, lit("amount * rate"))}</context>`, {
        amount: 10,
      }),
    ).toBe(5);
  });

  test("a list gives the values of its elements", async () => {
    expect(await run(`<list>${lit("1 + 1")}${lit('"two"')}${lit("null")}</list>`)).toEqual([2, "two", null]);
  });

  test("a relation gives a list of contexts keyed by column", async () => {
    const relation = `<relation><column name="name"/><column name="age"/>
      <row>${lit('"Ann"')}${lit("30")}</row><row>${lit('"Bob"')}${lit("40 + 1")}</row></relation>`;
    expect(await run(relation)).toEqual([
      { name: "Ann", age: 30 },
      { name: "Bob", age: 41 },
    ]);
  });

  test("a function definition gives a function that FEEL can call", async () => {
    const fn = `<functionDefinition><formalParameter name="x"/><formalParameter name="y"/>${lit("x * y + base")}</functionDefinition>`;
    expect(
      await run(`<context>${entry("base", lit("100"))}${entry("f", fn)}${entry(undefined, lit("f(3, 4)"))}</context>`),
    ).toBe(112);
  });

  test("an invocation calls a function in scope with named bindings", async () => {
    const fn = `<functionDefinition><formalParameter name="a"/><formalParameter name="b"/>${lit("a - b")}</functionDefinition>`;
    const call = `<invocation>${lit("minus")}<binding><parameter name="b"/>${lit("2")}</binding><binding><parameter name="a"/>${lit("10")}</binding></invocation>`;
    expect(await run(`<context>${entry("minus", fn)}${entry(undefined, call)}</context>`)).toBe(8);
  });

  test("an invocation of something that is not a function is an evaluation error", async () => {
    const call = `<invocation>${lit("notAFunction")}</invocation>`;
    await expect(run(call, { notAFunction: 1 })).rejects.toThrow(/'notAFunction' is not a function/);
  });

  test("an invocation binding an unknown parameter is an evaluation error", async () => {
    const fn = `<functionDefinition><formalParameter name="a"/>${lit("a")}</functionDefinition>`;
    const call = `<invocation>${lit("f")}<binding><parameter name="zz"/>${lit("1")}</binding></invocation>`;
    await expect(run(`<context>${entry("f", fn)}${entry(undefined, call)}</context>`)).rejects.toThrow(
      /no parameter 'zz'/,
    );
  });

  test("boxed expressions nest: a list of contexts holding a decision table", async () => {
    const table = `<decisionTable id="t"><input id="ti"><inputExpression><text>n</text></inputExpression></input><output id="to" name="o"/>
      <rule id="tr1"><inputEntry><text>&lt; 5</text></inputEntry><outputEntry><text>"low"</text></outputEntry></rule>
      <rule id="tr2"><inputEntry><text>&gt;= 5</text></inputEntry><outputEntry><text>"high"</text></outputEntry></rule></decisionTable>`;
    const r = await parseDmn(decision(`<context>${entry("n", lit("7"))}${entry("level", table)}</context>`));
    expect(evaluateDecision(r, "d", {})).toEqual({ result: { n: 7, level: "high" }, matchedRules: ["tr2"] });
  });

  test("a function of another kind than FEEL is refused at parse time", async () => {
    const fn = `<functionDefinition id="javaFn" kind="Java">${lit("x")}</functionDefinition>`;
    await expect(parseDmn(decision(fn))).rejects.toThrow(DmnParseError);
    await expect(parseDmn(decision(fn))).rejects.toThrow(/javaFn/);
  });

  test("a relation row with a missing cell is refused at parse time", async () => {
    const relation = `<relation id="rel"><column name="a"/><column name="b"/><row id="row1">${lit("1")}</row></relation>`;
    await expect(parseDmn(decision(relation))).rejects.toThrow(/row1/);
  });
});
