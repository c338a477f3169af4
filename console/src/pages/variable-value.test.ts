import { describe, expect, test } from "bun:test";
import { parseTyped, textOf, typeOf, validName } from "./variable-value";

describe("typed variable values", () => {
  test("a stored value's type and text", () => {
    expect([
      typeOf(3),
      typeOf(true),
      typeOf("x"),
      typeOf("2026-03-31"),
      typeOf({ a: 1 }),
      typeOf([1]),
      typeOf(null),
    ]).toEqual(["number", "boolean", "string", "date", "json", "json", "null"]);
    expect(textOf({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(textOf(null)).toBe("");
    expect(textOf(2.5)).toBe("2.5");
  });

  test("reads each type, refusing what does not fit", () => {
    expect(parseTyped("number", " 250 ")).toEqual({ value: 250 });
    expect(parseTyped("number", "1,5")).toHaveProperty("error");
    expect(parseTyped("number", "")).toHaveProperty("error");
    expect(parseTyped("boolean", "false")).toEqual({ value: false });
    expect(parseTyped("boolean", "yes")).toHaveProperty("error");
    expect(parseTyped("string", " keep spaces ")).toEqual({ value: " keep spaces " });
    expect(parseTyped("date", "2026-03-31T14:00:00Z")).toEqual({ value: "2026-03-31T14:00:00Z" });
    expect(parseTyped("date", "31/03/2026")).toHaveProperty("error");
    expect(parseTyped("json", '{"a":[1,2]}')).toEqual({ value: { a: [1, 2] } });
    expect(parseTyped("json", "42")).toHaveProperty("error");
    expect(parseTyped("json", "{oops")).toHaveProperty("error");
    expect(parseTyped("null", "anything")).toEqual({ value: null });
  });

  test("names the engine can read", () => {
    expect(["amount", "_x1"].every(validName)).toBe(true);
    expect(["1st", "a-b", "", "a b"].some(validName)).toBe(false);
  });
});
