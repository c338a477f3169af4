import { describe, expect, test } from "bun:test";
import type { Field } from "../form/model";
import { evaluationVariables } from "./modeler/decision";
import { optionsText, parseOptions, patched } from "./modeler/field-rows";
import { fromRaw, toRaw } from "./settings/robot-config";
import type { Parameter } from "./settings/robots";

describe("forms editor rows", () => {
  test("options as value=Label lines, both ways; a plain line is its own label; blank lines dropped", () => {
    const opts = parseOptions(" yes=Approve \n\nno = Reject\nmaybe\nx=");
    expect(opts).toEqual([
      { value: "yes", label: "Approve" },
      { value: "no", label: "Reject" },
      { value: "maybe", label: "maybe" },
      { value: "x", label: "x" },
    ]);
    expect(optionsText(opts)).toBe("yes=Approve\nno=Reject\nmaybe=maybe\nx=x");
    expect(optionsText(["a", 2])).toBe("a\n2");
  });
  test("a patch keeps the properties the row does not show and drops emptied ones", () => {
    const f: Field = { key: "a", type: "section", label: "A", required: true, fields: [{ key: "b", type: "text" }] };
    expect(patched(f, { label: "", required: false, visibleIf: "x > 1" })).toEqual({
      key: "a",
      type: "section",
      visibleIf: "x > 1",
      fields: [{ key: "b", type: "text" }],
    });
  });
});

describe("decision try-out variables", () => {
  const inputs = [
    { id: "1", expression: "customerType", typeRef: "string" },
    { id: "2", expression: "amount", typeRef: "number", label: "Amount" },
    { id: "3", expression: "customer.vip", typeRef: "boolean" },
    { id: "4", expression: "amount * 2", typeRef: "number" },
  ];
  test("typed by typeRef, dotted paths nested, empty left out, a decimal comma read", () => {
    expect(evaluationVariables(inputs, { customerType: "GOLD", amount: "1500,5", "customer.vip": true }, "")).toEqual({
      customerType: "GOLD",
      amount: 1500.5,
      customer: { vip: true },
    });
    expect(evaluationVariables(inputs, { customerType: " " }, "")).toEqual({ customer: { vip: false } });
  });
  test("further variables as JSON under the fields; a bad number or bad JSON is refused with a reason", () => {
    expect(evaluationVariables(inputs, { amount: "3" }, '{"amount": 1, "region": "EU"}')).toEqual({
      amount: 3,
      region: "EU",
      customer: { vip: false },
    });
    expect(() => evaluationVariables(inputs, { amount: "lots" }, "")).toThrow("Amount: enter a number.");
    expect(() => evaluationVariables(inputs, {}, "[1]")).toThrow("JSON object");
    expect(() => evaluationVariables(inputs, {}, "{nope")).toThrow("JSON object");
  });
});

describe("robot configuration values", () => {
  const p = (type: Parameter["type"], secret = false): Parameter => ({ name: "p", type, required: false, secret });
  test("a secret is only ever a tenant variable reference", () => {
    expect(fromRaw(p("string", true), "SMTP_PASSWORD")).toEqual({ value: { variable: "SMTP_PASSWORD" } });
    expect(toRaw(p("string", true), { variable: "SMTP_PASSWORD" })).toBe("SMTP_PASSWORD");
    expect(fromRaw(p("string", true), "")).toEqual({});
  });
  test("numbers, booleans and JSON are parsed; what cannot be read is refused", () => {
    expect(fromRaw(p("number"), "25")).toEqual({ value: 25 });
    expect(fromRaw(p("number"), "x")).toEqual({ error: "Enter a number." });
    expect(fromRaw(p("boolean"), false)).toEqual({ value: false });
    expect(fromRaw(p("json"), '{"a":[1]}')).toEqual({ value: { a: [1] } });
    expect(fromRaw(p("json"), "{a")).toEqual({ error: "Enter valid JSON." });
    expect(toRaw(p("json"), { a: 1 })).toBe('{\n  "a": 1\n}');
    expect(toRaw(p("number"), undefined)).toBe("");
  });
});
