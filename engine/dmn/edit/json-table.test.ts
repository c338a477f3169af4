import { describe, expect, test } from "bun:test";
import { evaluateDecision } from "../drg/evaluate";
import { DmnDecisionNotFoundError, DmnParseError, DmnValidationError } from "../errors";
import { parseDmn } from "../model/parse";
import { definitions, tableDecision } from "../test-support";
import type { JsonTable } from "../types";
import { applyJsonTable, toJsonTable } from "./json-table";

const xml = definitions(
  `${tableDecision({
    id: "discount",
    name: "Discount",
    hitPolicy: "FIRST",
    inputs: [
      { expr: "age", typeRef: "number" },
      { expr: "member", typeRef: "boolean" },
    ],
    outputs: [{ name: "rate", typeRef: "number" }],
    rules: [
      { id: "kids", cells: ["< 18", "-", "0.5"] },
      { id: "members", cells: ["-", "true", "0.1"] },
    ],
  })}<decision id="lit" name="Literal"><literalExpression><text>1</text></literalExpression></decision>`,
  "https://www.omg.org/spec/DMN/20230324/MODEL/",
);

describe("JSON edit of a decision table", () => {
  test("reads the table as JSON", async () => {
    const t = toJsonTable(await parseDmn(xml), "discount");
    expect(t).toEqual({
      hitPolicy: "FIRST",
      inputs: [
        { id: "discount_in0", label: "age", expression: "age", typeRef: "number" },
        { id: "discount_in1", label: "member", expression: "member", typeRef: "boolean" },
      ],
      outputs: [{ id: "discount_out0", name: "rate", typeRef: "number" }],
      rules: [
        { id: "kids", inputEntries: ["< 18", "-"], outputEntries: ["0.5"] },
        { id: "members", inputEntries: ["-", "true"], outputEntries: ["0.1"] },
      ],
    });
  });

  test("writes edited rules back to XML that evaluates with them, keeping untouched ids", async () => {
    const t = toJsonTable(await parseDmn(xml), "discount");
    t.rules[1].outputEntries = ["0.2"];
    t.rules.push({ id: "seniors", inputEntries: [">= 65", "-"], outputEntries: ["0.3"], description: "pensioners" });
    t.rules.unshift({ id: "", inputEntries: ["[18..20]", "-"], outputEntries: ["0.25"] } as JsonTable["rules"][0]);
    const out = await applyJsonTable(xml, "discount", t);
    const m = await parseDmn(out);
    expect(evaluateDecision(m, "discount", { age: 70, member: false })).toEqual({
      result: 0.3,
      matchedRules: ["seniors"],
    });
    expect(evaluateDecision(m, "discount", { age: 40, member: true }).result).toBe(0.2);
    const again = toJsonTable(m, "discount");
    expect(again.rules.map((r) => r.id).slice(1)).toEqual(["kids", "members", "seniors"]);
    expect(again.rules[0].id).toMatch(/^DecisionRule_/);
    expect(again.rules[3].description).toBe("pensioners");
    expect(evaluateDecision(m, "lit", {}).result).toBe(1);
  });

  test("round-trips unchanged JSON to an equivalent table", async () => {
    const t = toJsonTable(await parseDmn(xml), "discount");
    const out = await applyJsonTable(xml, "discount", t);
    expect(toJsonTable(await parseDmn(out), "discount")).toEqual(t);
  });

  test("changes the hit policy and columns", async () => {
    const t = toJsonTable(await parseDmn(xml), "discount");
    t.hitPolicy = "COLLECT";
    t.aggregation = "SUM";
    const m = await parseDmn(await applyJsonTable(xml, "discount", t));
    expect(evaluateDecision(m, "discount", { age: 10, member: true }).result).toBeCloseTo(0.6, 10);
  });

  test("refuses a rule with the wrong number of entries, with a JSON path", async () => {
    const t = toJsonTable(await parseDmn(xml), "discount");
    t.rules[0].inputEntries = ["< 18"];
    const e = await applyJsonTable(xml, "discount", t).catch((err) => err);
    expect(e).toBeInstanceOf(DmnValidationError);
    expect(e.path).toBe("rules[0].inputEntries");
  });

  test("refuses an unknown hit policy, an aggregation without COLLECT and duplicate ids", async () => {
    const base = toJsonTable(await parseDmn(xml), "discount");
    await expect(applyJsonTable(xml, "discount", { ...base, hitPolicy: "MAYBE" as never })).rejects.toThrow(
      /hitPolicy/,
    );
    await expect(applyJsonTable(xml, "discount", { ...base, aggregation: "SUM" })).rejects.toThrow(DmnValidationError);
    const dup = structuredClone(base);
    dup.rules[1].id = "kids";
    await expect(applyJsonTable(xml, "discount", dup)).rejects.toThrow(/duplicate id 'kids'/);
  });

  test("refuses invalid FEEL in an edited cell, naming the element", async () => {
    const t = toJsonTable(await parseDmn(xml), "discount");
    t.rules[0].inputEntries[0] = "[1..";
    await expect(applyJsonTable(xml, "discount", t)).rejects.toThrow(DmnParseError);
  });

  test("refuses an unknown decision and one that is not a table", async () => {
    const m = await parseDmn(xml);
    expect(() => toJsonTable(m, "nope")).toThrow(DmnDecisionNotFoundError);
    expect(() => toJsonTable(m, "lit")).toThrow(DmnValidationError);
    await expect(applyJsonTable(xml, "lit", toJsonTable(m, "discount"))).rejects.toThrow(DmnValidationError);
  });
});
