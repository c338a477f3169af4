import { describe, expect, test } from "bun:test";
import { compileExpression, compileUnaryTests, guardCallable } from "./index";
import { FeelFunction } from "feelin";

const value = <T>(r: { ok: true; value: T } | { ok: false }): T => {
  if (!r.ok) throw new Error("expected a value");
  return r.value;
};

describe("the one FEEL module", () => {
  test("compiles an expression once and evaluates it against many contexts", () => {
    const f = value(compileExpression("amount > 100"));
    expect(f({ amount: 101 })).toEqual({ ok: true, value: true });
    expect(f({ amount: 99 })).toEqual({ ok: true, value: false });
  });

  test("returns the same compiled expression for the same text and kind", () => {
    expect(compileExpression("a + 1")).toBe(compileExpression("a + 1"));
    expect(compileUnaryTests("< 5")).toBe(compileUnaryTests("< 5"));
    expect(compileExpression("a + 1")).not.toBe(compileExpression("a + 1", ["a b"]));
  });

  test("returns a syntax error as a value instead of throwing", () => {
    const r = compileExpression("amount >");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe("syntax");
      expect(r.error.message).toMatch(/invalid FEEL expression 'amount >'/);
    }
    const u = compileUnaryTests("[1..");
    expect(u.ok).toBe(false);
    if (!u.ok) expect(u.error.message).toMatch(/invalid FEEL unaryTests/);
  });

  test("gives null for type errors on data, as FEEL does", () => {
    expect(value(compileExpression('1 + "a"'))({})).toEqual({ ok: true, value: null });
  });

  test("returns a failure of an invoked guarded function as an evaluation error with its cause", () => {
    const boom = new Error("inner failure");
    const f = new FeelFunction(
      guardCallable(() => {
        throw boom;
      }),
      ["x"],
    );
    const r = value(compileExpression("1 + f(1)"))({ f });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe("evaluation");
      expect(r.error.cause).toBe(boom);
      expect(r.error.message).toMatch(/inner failure/);
    }
  });

  test("evaluates unary tests on the fast path and through feelin alike", () => {
    expect(value(compileUnaryTests("[1..10]"))(5, {})).toEqual({ ok: true, value: true });
    expect(value(compileUnaryTests("< limit"))(7, { limit: 5 })).toEqual({ ok: true, value: false });
    expect(value(compileUnaryTests("-"))("anything", {})).toEqual({ ok: true, value: true });
  });
});
