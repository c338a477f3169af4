import { describe, expect, test } from "bun:test";
import { evaluateDecision } from "./drg/evaluate";
import { parseDmn } from "./model/parse";
import { definitions, esc } from "./test-support";

const types = `
  <itemDefinition name="tPair"><itemComponent name="a"><typeRef>string</typeRef></itemComponent>
    <itemComponent name="b"><typeRef>number</typeRef></itemComponent></itemDefinition>
  <itemDefinition name="tNumbers" isCollection="true"><typeRef>number</typeRef></itemDefinition>
  <itemDefinition name="tByte"><typeRef>number</typeRef><allowedValues><text>[0..255]</text></allowedValues></itemDefinition>`;

const decide = (text: string, vars: Record<string, unknown> = {}) =>
  parseDmn(
    definitions(
      `${types}<decision id="d" name="d"><literalExpression><text>${esc(text)}</text></literalExpression></decision>`,
    ),
  ).then((m) => evaluateDecision(m, "d", vars).result);

describe("instance of an item definition", () => {
  test("structures by their components (more entries allowed), collections by their items, base types", async () => {
    expect(await decide('{a: "x", b: 1} instance of tPair')).toBe(true);
    expect(await decide('{a: "x", b: 1, c: true} instance of tPair')).toBe(true);
    expect(await decide('{a: "x"} instance of tPair')).toBe(false);
    expect(await decide('{a: "x", b: "1"} instance of tPair')).toBe(false);
    expect(await decide("[1, 2] instance of tNumbers")).toBe(true);
    expect(await decide('[1, "2"] instance of tNumbers')).toBe(false);
    expect(await decide('[{a: "x", b: 1}] instance of list<tPair>')).toBe(true);
  });

  test("allowed values restrict values, not the type; a variable of the type's name is the variable", async () => {
    expect(await decide("256 instance of tByte")).toBe(true);
    expect(await decide('"1" instance of tByte')).toBe(false);
    expect(await decide("tNumbers", { tNumbers: 5 })).toBe(5);
  });
});
