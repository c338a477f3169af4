import { describe, expect, test } from "bun:test";
import { conflicts, type Suggestion } from "./ai-suggest";
import type { Field } from "./model";

const s = (value: unknown, conflictsWithCurrent = false): Suggestion => ({
  field: "x",
  value,
  reason: "r",
  conflictsWithCurrent,
});
const f = (type: string): Field => ({ key: "x", type });

describe("when a suggestion would replace a value", () => {
  test("the server's flag always counts, whatever the field holds now", () => {
    expect(conflicts(s(250, true), f("number"), undefined)).toBe(true);
  });
  test("an empty field takes it freely (a checkbox's default false is empty)", () => {
    for (const empty of [undefined, null, "", "  ", []]) expect(conflicts(s("a"), f("text"), empty)).toBe(false);
    expect(conflicts(s(true), f("checkbox"), false)).toBe(false);
  });
  test("a value typed since the request conflicts when it differs, not when it is the same", () => {
    expect(conflicts(s(250), f("number"), 100)).toBe(true);
    expect(conflicts(s(250), f("number"), 250)).toBe(false);
    expect(conflicts(s("250"), f("number"), 250)).toBe(false);
    expect(conflicts(s(["a", "b"]), f("multiselect"), ["a", "b"])).toBe(false);
    expect(conflicts(s(["a"]), f("multiselect"), ["b"])).toBe(true);
    expect(conflicts(s(false), f("checkbox"), true)).toBe(true);
  });
});
