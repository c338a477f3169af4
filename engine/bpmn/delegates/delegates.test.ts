import { describe, expect, test } from "bun:test";
import { fakeDelegateContext as ctx } from "../../../test/fixtures/bpmn/delegate-context";
import { createDelegateRegistry } from "./registry";

describe("built-in delegates", () => {
  test("are found by kebab, camel, class-like and delegate-expression names", () => {
    const r = createDelegateRegistry();
    for (const n of ["set-variables", "setVariables", "com.acme.SetVariablesDelegate", "${setVariables}"])
      expect(r.get(n)?.name).toBe("set-variables");
    expect(r.get("nope")).toBeUndefined();
    expect(r.list().map((d) => d.name)).toEqual(["set-variables", "http", "log", "throw-error"]);
    expect(
      r
        .list()
        .find((d) => d.name === "http")!
        .parameters.map((p) => p.name),
    ).toContain("requestUrl");
  });

  test("set-variables copies its parameters and a JSON object of variables", async () => {
    const vars: Record<string, unknown> = {};
    await createDelegateRegistry()
      .get("set-variables")!
      .execute(ctx({ a: 1, variables: '{"b": true}' }, vars));
    expect(vars).toEqual({ a: 1, b: true });
  });

  test("throw-error raises a BPMN error with its code, and refuses to run without one", () => {
    const d = createDelegateRegistry().get("throw-error")!;
    expect(() => d.execute(ctx({ errorCode: "E1" }))).toThrow(
      expect.objectContaining({ code: "E1", name: "BpmnError" }),
    );
    expect(() => d.execute(ctx({}))).toThrow(/needs an errorCode/);
  });
});
