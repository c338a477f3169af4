import { describe, expect, test } from "bun:test";
import { unaryTest } from "feelin";
import { DmnParseError } from "./errors";
import { compileUnaryTests } from "./feel-edge";

const TESTS = [
  "-",
  "5",
  "-5",
  "5.5",
  '"a"',
  '"a","b"',
  "true",
  "false",
  "null",
  "< 5",
  "<= 5",
  "> 5",
  ">= -2.5",
  '< "m"',
  "[1..10]",
  "(1..10)",
  "]1..10[",
  "[1..10)",
  '["a".."m"]',
  "not(5)",
  'not("a", "b")',
  "not(< 5)",
  "not([1..3], 7)",
  "1, [5..7], > 100",
  "not(null)",
];
const NUMBERS = [0, 1, 3, 5, 5.5, 7, 10, 101, -5, -2.5];
const STRINGS = ["a", "b", "m", "z", ""];
const BOOLEANS = [true, false];
const kindOf = (text: string) =>
  /"/.test(text) ? STRINGS : /true|false/.test(text) ? BOOLEANS : /\d/.test(text) ? NUMBERS : [];

describe("compiled unary tests", () => {
  test("agree with feelin on every test of the literal subset for inputs of the endpoint's type", () => {
    const disagreements: string[] = [];
    for (const text of TESTS) {
      const compiled = compileUnaryTests(text, [], "cell");
      for (const input of kindOf(text)) {
        const expected = text === "-" ? true : unaryTest(text, { "?": input }).value === true;
        if (compiled(input, {}) !== expected)
          disagreements.push(`${text} ? ${JSON.stringify(input)}: feelin ${expected}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  test("never match when input and endpoint cannot be compared, negated or not (FEEL null)", () => {
    for (const text of ["< 5", "[1..10]", '< "m"', "not(< 5)", "not([1..3], 7)", '["a".."m"]']) {
      const compiled = compileUnaryTests(text, [], "cell");
      for (const input of [null, "a", 3, true].filter((i) => !kindOf(text).includes(i as never))) {
        expect([text, input, compiled(input, {})]).toEqual([text, input, false]);
      }
    }
  });

  test("treat null as unequal to any literal but null", () => {
    expect(compileUnaryTests('"a"', [], "cell")(null, {})).toBe(false);
    expect(compileUnaryTests('not("a")', [], "cell")(null, {})).toBe(true);
    expect(compileUnaryTests("null", [], "cell")(null, {})).toBe(true);
    expect(compileUnaryTests("not(null)", [], "cell")(null, {})).toBe(false);
  });

  test("leave list inputs to feelin's membership rules", () => {
    expect(compileUnaryTests("5", [], "cell")([5], {})).toBe(unaryTest("5", { "?": [5] }).value === true);
  });

  test("fall back to feelin for expressions that refer to variables", () => {
    const t = compileUnaryTests("< limit", [], "cell");
    expect(t(3, { limit: 5 })).toBe(true);
    expect(t(7, { limit: 5 })).toBe(false);
    expect(compileUnaryTests("? > 2 and ? < 4", [], "cell")(3, {})).toBe(true);
  });

  test("treat an empty cell as matching anything", () => {
    expect(compileUnaryTests("", [], "cell")("anything", {})).toBe(true);
    expect(compileUnaryTests(undefined, [], "cell")(null, {})).toBe(true);
  });

  test("reject invalid FEEL at compile time, naming the element", () => {
    expect(() => compileUnaryTests("1 +* 2", [], "rule-7-input-2")).toThrow(DmnParseError);
    expect(() => compileUnaryTests("[1..", [], "rule-7-input-2")).toThrow(/rule-7-input-2/);
  });
});
