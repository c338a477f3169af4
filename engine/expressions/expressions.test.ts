import { describe, expect, test } from "bun:test";
import { compileExpression, compileValue, compileFeelScript } from "./index";

const scope = (vars: Record<string, unknown>) => ({ get: (n: string) => vars[n], all: () => vars });

describe("expressions", () => {
  test("evaluates JUEL comparisons, logic and property access", () => {
    const v = { amount: 150, user: { name: "kermit", roles: ["a"] }, ok: true, s: "" };
    expect(compileExpression("${amount > 100 && ok}")(scope(v))).toBe(true);
    expect(compileExpression("${amount <= 100 || !ok}")(scope(v))).toBe(false);
    expect(compileExpression("${user.name == 'kermit'}")(scope(v))).toBe(true);
    expect(compileExpression("${amount gt 10 and not empty user.name}")(scope(v))).toBe(true);
    expect(compileExpression("${empty s}")(scope(v))).toBe(true);
    expect(compileExpression("${not empty missing}")(scope(v))).toBe(false);
    expect(compileExpression("${amount != 150}")(scope(v))).toBe(false);
    expect(compileExpression("#{amount}")(scope(v))).toBe(150);
  });
  test("renders mixed JUEL templates as text", () => {
    expect(compileValue("Hello ${user.name}!")(scope({ user: { name: "x" } }))).toBe("Hello x!");
    expect(compileValue("PT5M")(scope({}))).toBe("PT5M");
  });
  test("refuses method calls instead of executing them", () => {
    expect(() => compileExpression("${bean.doSomething(execution)}")).toThrow(/method calls/);
    expect(() => compileExpression("${System.exit(1)}")).toThrow(/not supported/);
  });
  test("evaluates FEEL conditions and scripts through feelin", () => {
    expect(compileExpression("amount > 100")(scope({ amount: 101 }))).toBe(true);
    expect(compileExpression("=amount + 1")(scope({ amount: 1 }))).toBe(2);
    expect(compileFeelScript("{ total: a * 2 }")(scope({ a: 3 }))).toEqual({ total: 6 });
  });
  test("reports FEEL syntax errors when compiling", () => {
    expect(() => compileExpression("amount >")).toThrow(/FEEL/);
  });
});
