import { describe, expect, test } from "bun:test";
import { fromCamundaVariables, toCamundaVariables } from "./camunda-values";

const one = (type: string, value: unknown, valueInfo: Record<string, unknown> = {}) =>
  fromCamundaVariables({ v: { type, value, valueInfo } })!.v;

describe("Camunda typed values", () => {
  test("each type is stored as the plain value expressions read", () => {
    expect(one("Short", 32767)).toBe(32767);
    expect(one("Integer", "-12")).toBe(-12);
    expect(one("Long", 2 ** 40)).toBe(2 ** 40);
    expect(one("Double", "2.5")).toBe(2.5);
    expect(one("Boolean", false)).toBe(false);
    expect(one("Date", "2026-03-01T10:00:00.000+0200")).toBe("2026-03-01T08:00:00.000Z");
    expect(one("Json", '{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(one("Object", '{"k":"v"}', { serializationDataFormat: "application/json", objectTypeName: "x.Y" })).toEqual({
      k: "v",
    });
    expect(one("null", undefined)).toBeNull();
    expect(one("String", null)).toBeNull();
  });

  test("values outside the type's range or form are refused with the variable named", () => {
    expect(() => one("Short", 40000)).toThrow(/Short value must be an integer/);
    expect(() => one("Integer", 2 ** 31)).toThrow(/variables\.v/);
    expect(() => one("Integer", 1.5)).toThrow();
    expect(() => one("Boolean", "yes")).toThrow();
    expect(() => one("Double", "NaN")).toThrow();
    expect(() => one("Object", "<a/>", { serializationDataFormat: "application/xml" })).toThrow(/application\/xml/);
  });

  test("plain values pass unchanged, and stored values come back typed", () => {
    expect(fromCamundaVariables({ a: 1, b: { type: 1 }, c: { type: "x", other: 1 } })).toEqual({
      a: 1,
      b: { type: 1 },
      c: { type: "x", other: 1 },
    });
    expect(toCamundaVariables({ s: "x", i: 7, l: 2 ** 33, d: 0.5, b: true, n: null, o: { a: 1 }, l2: [1] })).toEqual({
      s: { type: "String", value: "x", valueInfo: {} },
      i: { type: "Integer", value: 7, valueInfo: {} },
      l: { type: "Long", value: 2 ** 33, valueInfo: {} },
      d: { type: "Double", value: 0.5, valueInfo: {} },
      b: { type: "Boolean", value: true, valueInfo: {} },
      n: { type: "Null", value: null, valueInfo: {} },
      o: { type: "Json", value: '{"a":1}', valueInfo: {} },
      l2: { type: "Json", value: "[1]", valueInfo: {} },
    });
  });
});
