import { describe, expect, test } from "bun:test";
import { evaluateDecision } from "../drg/evaluate";
import { DmnParseError } from "../errors";
import { definitions, rows, tableDecision } from "../test-support";
import { listDecisions } from "./list-decisions";
import { parseDmn } from "./parse";

const simple = tableDecision({
  id: "d1",
  name: "Discount",
  inputs: [{ expr: "age" }],
  outputs: [{ name: "o" }],
  rules: rows(["< 18", "0.1"], [">= 18", "0"]),
});

async function parseError(xml: string): Promise<DmnParseError> {
  const e = await parseDmn(xml).catch((err) => err);
  expect(e).toBeInstanceOf(DmnParseError);
  return e;
}

describe("parseDmn", () => {
  test("addresses every decision by id, with its name", async () => {
    const m = await parseDmn(definitions(simple));
    expect(listDecisions(m)).toEqual([{ key: "d1", name: "Discount" }]);
    expect(evaluateDecision(m, "d1", { age: 10 }).result).toBe(0.1);
    expect(evaluateDecision(m, "Discount", { age: 30 }).result).toBe(0);
  });

  test("gives a nameless decision its id as name", async () => {
    const m = await parseDmn(
      definitions(`<decision id="anon"><literalExpression><text>1</text></literalExpression></decision>`),
    );
    expect(listDecisions(m)).toEqual([{ key: "anon", name: "anon" }]);
  });

  test("knows a decision without id by its name (as the DMN TCK and other engines do); neither is refused", async () => {
    const m = await parseDmn(
      definitions(`<decision name="no id"><literalExpression><text>1 + 1</text></literalExpression></decision>`),
    );
    expect(listDecisions(m)).toEqual([{ key: "no id", name: "no id" }]);
    expect(evaluateDecision(m, "no id").result).toBe(2);
    const e = await parseError(
      definitions(`<decision><literalExpression><text>1</text></literalExpression></decision>`),
    );
    expect(e.message).toContain("neither id nor name");
  });

  for (const [version, ns] of [
    ["1.4", "https://www.omg.org/spec/DMN/20211108/MODEL/"],
    ["1.5", "https://www.omg.org/spec/DMN/20230324/MODEL/"],
  ]) {
    test(`reads DMN ${version} by mapping its namespace onto 1.3`, async () => {
      const m = await parseDmn(definitions(simple, ns));
      expect(evaluateDecision(m, "d1", { age: 10 }).result).toBe(0.1);
    });
  }

  test("reads a DMN 1.1 (Camunda 7) model through dmn-migrate", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/DMN/20151101/dmn.xsd" id="dish" name="Dish" namespace="http://camunda.org/schema/1.0/dmn">
  <decision id="decision" name="Dish">
    <decisionTable id="decisionTable" hitPolicy="FIRST">
      <input id="input1" label="Season"><inputExpression id="inputExpression1" typeRef="string"><text>season</text></inputExpression></input>
      <output id="output1" label="Dish" name="desiredDish" typeRef="string" />
      <rule id="row-1"><inputEntry id="e1"><text>"Winter"</text></inputEntry><outputEntry id="o1"><text>"Roastbeef"</text></outputEntry></rule>
      <rule id="row-2"><inputEntry id="e2"><text></text></inputEntry><outputEntry id="o2"><text>"Salad"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`;
    const m = await parseDmn(xml);
    expect(evaluateDecision(m, "decision", { season: "Winter" })).toEqual({
      result: "Roastbeef",
      matchedRules: ["row-1"],
    });
    expect(evaluateDecision(m, "decision", { season: "Summer" }).result).toBe("Salad");
  });

  test("reads a DMN 1.2 model", async () => {
    const m = await parseDmn(definitions(simple, "http://www.omg.org/spec/DMN/20180521/MODEL/"));
    expect(evaluateDecision(m, "d1", { age: 30 }).result).toBe(0);
  });

  test("refuses malformed XML", async () => {
    await parseError("<definitions><decision");
    await parseError("");
  });

  test("refuses a document that is not DMN", async () => {
    await parseError(
      `<?xml version="1.0"?><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"/>`,
    );
  });

  test("names the input entry holding invalid FEEL", async () => {
    const xml =
      definitions(`<decision id="d"><decisionTable id="t"><input id="i"><inputExpression><text>x</text></inputExpression></input><output id="o"/>
      <rule id="r1"><inputEntry id="bad_entry"><text>[1..</text></inputEntry><outputEntry id="oe"><text>1</text></outputEntry></rule></decisionTable></decision>`);
    const e = await parseError(xml);
    expect(e.element).toBe("bad_entry");
    expect(e.message).toMatch(/bad_entry/);
  });

  test("names the decision whose literal expression is invalid FEEL", async () => {
    const e = await parseError(
      definitions(`<decision id="broken"><literalExpression><text>1 +* 2</text></literalExpression></decision>`),
    );
    expect(e.element).toBe("broken");
  });

  test("names the rule with the wrong number of entries", async () => {
    const xml =
      definitions(`<decision id="d"><decisionTable id="t"><input id="i"><inputExpression><text>x</text></inputExpression></input><output id="o"/>
      <rule id="short_rule"><outputEntry><text>1</text></outputEntry></rule></decisionTable></decision>`);
    expect((await parseError(xml)).element).toBe("short_rule");
  });

  test("names the requirement pointing nowhere", async () => {
    const xml = definitions(
      `<decision id="d"><informationRequirement id="req1"><requiredInput href="#ghost"/></informationRequirement><literalExpression><text>1</text></literalExpression></decision>`,
    );
    expect((await parseError(xml)).element).toBe("req1");
  });

  test("names the decision of a requirement cycle", async () => {
    const dec = (id: string, other: string) =>
      `<decision id="${id}"><informationRequirement id="r_${id}"><requiredDecision href="#${other}"/></informationRequirement><literalExpression><text>1</text></literalExpression></decision>`;
    const e = await parseError(definitions(dec("a", "b") + dec("b", "a")));
    expect(e.message).toMatch(/cycle/);
  });

  test("names the table with an unknown hit policy or a misplaced aggregation", async () => {
    const bad = (attrs: string) =>
      definitions(
        `<decision id="d"><decisionTable id="tbl" ${attrs}><input id="i"><inputExpression><text>x</text></inputExpression></input><output id="o"/></decisionTable></decision>`,
      );
    expect((await parseError(bad('hitPolicy="SOMETIMES"'))).element).toBe("tbl");
    expect((await parseError(bad('hitPolicy="FIRST" aggregation="SUM"'))).element).toBe("tbl");
  });

  test("names the unnamed output of a multi-output table", async () => {
    const xml = definitions(
      `<decision id="d"><decisionTable id="t"><input id="i"><inputExpression><text>x</text></inputExpression></input><output id="o1" name="a"/><output id="o2"/></decisionTable></decision>`,
    );
    expect((await parseError(xml)).element).toBe("o2");
  });

  test("names a duplicated id", async () => {
    const lit = `<literalExpression><text>1</text></literalExpression>`;
    const e = await parseError(
      definitions(`<decision id="same">${lit}</decision><decision id="same">${lit}</decision>`),
    );
    expect(e.element).toBe("same");
  });

  test("refuses a non-FEEL expression language, naming the element", async () => {
    const xml = definitions(
      `<decision id="d"><literalExpression id="js" expressionLanguage="javascript"><text>1</text></literalExpression></decision>`,
    );
    expect((await parseError(xml)).element).toBe("js");
  });

  test("reads a DMN 1.4 boxed expression and refuses one with a missing part instead of ignoring it", async () => {
    const xml = definitions(
      `<decision id="d"><conditional><if><literalExpression><text>true</text></literalExpression></if></conditional></decision>`,
      "https://www.omg.org/spec/DMN/20211108/MODEL/",
    );
    const e = await parseError(xml);
    expect(e.message).toMatch(/<conditional> has no <then> expression/);
  });
});
