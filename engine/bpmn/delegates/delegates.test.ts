import { describe, expect, test } from "bun:test";
import { createDelegateRegistry } from "./registry";
import type { DelegateContext } from "./types";

function ctx(params: Record<string, unknown>, vars: Record<string, unknown> = {}): DelegateContext {
  return {
    tenantId: "t",
    instanceId: "i",
    businessKey: null,
    activityId: "call",
    params,
    getVariable: (n) => vars[n],
    variables: () => vars,
    setVariable: (n, v) => {
      vars[n] = v;
    },
    log: () => {},
  };
}

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
