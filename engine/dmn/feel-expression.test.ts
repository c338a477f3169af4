import { describe, expect, test } from "bun:test";
import { evaluate, FeelFunction } from "feelin";
import { DmnEvaluationError, DmnParseError } from "./errors";
import { compileExpression } from "./feel-edge";
import { guardCallable } from "./feel-edge";

describe("compiled expressions", () => {
  test("agree with feelin on literals and names", () => {
    const vars = { age: 30, loan: { amount: 100, rate: { value: 0.1 } }, empty: null };
    for (const text of [
      "42",
      "-1.5",
      '"x\\"y"',
      "true",
      "null",
      "age",
      "loan.amount",
      "loan.rate.value",
      "empty",
      "loan.missing",
      "unknown",
    ]) {
      expect([text, compileExpression(text, [], "e")(vars)]).toEqual([text, evaluate(text, vars).value ?? null]);
    }
  });

  test("evaluate arithmetic, functions and names with spaces through feelin", () => {
    expect(compileExpression("a * 2 + 1", [], "e")({ a: 3 })).toBe(7);
    expect(
      compileExpression(
        '"You are " + Employment Status',
        ["Employment Status"],
        "e",
      )({ "Employment Status": "EMPLOYED" }),
    ).toBe("You are EMPLOYED");
    expect(compileExpression("sum([1, 2, 3])", [], "e")({})).toBe(6);
  });

  test("read properties of temporal values", () => {
    const d = evaluate('date("2024-02-29")').value;
    expect(compileExpression("d.year", [], "e")({ d })).toBe(2024);
  });

  test("give null for type errors, as FEEL does", () => {
    expect(compileExpression('1 + "a"', [], "e")({})).toBeNull();
  });

  test("reject invalid FEEL at compile time, naming the element", () => {
    expect(() => compileExpression("1 +* 2", [], "decision_1")).toThrow(DmnParseError);
    expect(() => compileExpression("(1 + 2", [], "decision_1")).toThrow(/decision_1/);
  });

  test("let a typed error raised inside an invoked function escape feelin", () => {
    const fn = compileExpression("1 + f(1)", [], "e");
    const f = new FeelFunction(
      guardCallable(() => {
        throw new DmnEvaluationError("inner failure", { decision: "inner" });
      }),
      ["x"],
    );
    expect(() => fn({ f })).toThrow(/inner failure/);
    expect(
      fn({
        f: new FeelFunction(
          guardCallable((x) => x),
          ["x"],
        ),
      }),
    ).toBe(2);
  });

  test("give null when a plain function invoked by FEEL fails, as FEEL does", () => {
    const fn = compileExpression("f(1)", [], "e");
    expect(
      fn({
        f: () => {
          throw new Error("boom");
        },
      }),
    ).toBeNull();
  });
});
