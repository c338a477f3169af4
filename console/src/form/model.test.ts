import { describe, expect, test } from "bun:test";
import {
  displayValue,
  labelOfKey,
  refusalSummary,
  type Field,
  initialValues,
  optionsFromRows,
  optionsOf,
  parseValue,
  problems,
  shown,
  submission,
  valueFields,
} from "./model";

const f = (type: string, extra: Partial<Field> = {}): Field => ({ key: "x", type, ...extra });

describe("visibleIf", () => {
  const cond = f("text", { visibleIf: 'kind = "company"' });
  test("shown only when the condition is true; false or null (unfilled) hides", () => {
    expect(shown(cond, { kind: "company" })).toBe(true);
    expect(shown(cond, { kind: "person" })).toBe(false);
    expect(shown(cond, {})).toBe(false);
  });
  test("no condition shows; a condition that fails to evaluate leaves the field visible", () => {
    expect(shown(f("text"), {})).toBe(true);
    expect(shown(f("text", { visibleIf: "amount >" }), { amount: 1 })).toBe(true);
  });
  test("numbers and lists", () => {
    expect(shown(f("text", { visibleIf: "amount > 10000" }), { amount: 20000 })).toBe(true);
    expect(shown(f("text", { visibleIf: "amount > 10000" }), { amount: 5 })).toBe(false);
    expect(shown(f("text", { visibleIf: 'list contains(tags, "urgent")' }), { tags: ["urgent"] })).toBe(true);
  });
});

describe("required model", () => {
  const schema = {
    fields: [
      { key: "kind", type: "radio", required: true, options: ["person", "company"] },
      { key: "companyName", type: "text", required: true, visibleIf: 'kind = "company"' },
      { type: "section", visibleIf: "amount > 100", fields: [{ key: "guarantor", type: "user", required: true }] },
      { key: "amount", type: "currency" },
      { key: "ok", type: "checkbox", required: true },
      { key: "items", type: "table", required: true, columns: [{ key: "sku", type: "text", required: true }] },
    ],
  };
  test("missing required fields, hidden ones excepted (the server's rule)", () => {
    expect(Object.keys(problems(schema, {}))).toEqual(["kind", "ok", "items"]);
    expect(Object.keys(problems(schema, { kind: "company", amount: 500, ok: true, items: [{}] }))).toEqual([
      "companyName",
      "guarantor",
      "items[0].sku",
    ]);
    expect(problems(schema, { kind: "person", ok: true, items: [{ sku: "A" }] })).toEqual({});
  });
  test("a format error shows only while its field is visible", () => {
    const errs = { companyName: "must be a name" };
    expect(problems(schema, { kind: "company", ok: true, items: [{ sku: "A" }], companyName: "?" }, errs)).toEqual(
      errs,
    );
    expect(problems(schema, { kind: "person", ok: true, items: [{ sku: "A" }] }, errs)).toEqual({});
  });
  test("submission sends visible fields and hidden-type fields, never a field its condition hides", () => {
    const s2 = {
      fields: [...schema.fields, { key: "h", type: "hidden" }, { key: "ro", type: "text", readOnly: true }],
    };
    const values = { kind: "person", companyName: "stale", amount: 5, guarantor: "u1", h: 1, ro: "x", ok: true };
    expect(submission(s2, values)).toEqual({ kind: "person", amount: 5, h: 1, ok: true });
  });
  test("initial values: saved variables, else defaults; checkboxes start unticked", () => {
    const s3 = {
      fields: [
        { key: "a", type: "text", defaultValue: "d" },
        { key: "b", type: "checkbox" },
        { key: "c", type: "text" },
      ],
    };
    expect(initialValues(s3, { c: "saved" })).toEqual({ a: "d", b: false, c: "saved" });
    expect(valueFields(schema.fields as Field[]).map((e) => e.field.key)).toContain("guarantor");
  });
});

describe("value parsing per field type", () => {
  test("text types keep the text (trimmed; textarea as typed); empty is unset", () => {
    expect(parseValue(f("text"), "  a ")).toEqual({ value: "a" });
    expect(parseValue(f("textarea"), "line\n")).toEqual({ value: "line\n" });
    expect(parseValue(f("text"), "  ")).toEqual({ value: undefined });
  });
  test("number, decimal, currency take a comma or a dot; integer refuses fractions; garbage is an error", () => {
    for (const t of ["number", "decimal", "currency"]) expect(parseValue(f(t), "1250,5")).toEqual({ value: 1250.5 });
    expect(parseValue(f("integer"), "7")).toEqual({ value: 7 });
    expect(parseValue(f("integer"), "7.5").error).toBe("must be a whole number");
    expect(parseValue(f("number"), "abc").error).toBe("must be a number");
  });
  test("email and phone are checked on the client (the server checks no formats)", () => {
    expect(parseValue(f("email"), "a@b.pt")).toEqual({ value: "a@b.pt" });
    expect(parseValue(f("email"), "nope").error).toBeDefined();
    expect(parseValue(f("phone"), "+351 912 345 678")).toEqual({ value: "+351 912 345 678" });
    expect(parseValue(f("phone"), "call me").error).toBeDefined();
  });
  test("date, time and datetime give ISO 8601 text", () => {
    expect(parseValue(f("date"), "2026-11-23")).toEqual({ value: "2026-11-23" });
    expect(parseValue(f("date"), "23/11/2026").error).toBeDefined();
    expect(parseValue(f("time"), "09:30")).toEqual({ value: "09:30" });
    const dt = parseValue(f("datetime"), "2026-11-23T09:30").value as string;
    expect(new Date(dt).getTime()).toBe(new Date("2026-11-23T09:30").getTime());
    expect(displayValue(f("datetime"), dt)).toBe("2026-11-23T09:30");
  });
  test("checkbox is a boolean", () => {
    expect(parseValue(f("checkbox"), true)).toEqual({ value: true });
    expect(parseValue(f("checkbox"), false)).toEqual({ value: false });
  });
  test("select and radio give the option's own value (numbers stay numbers); multiselect an array", () => {
    const sel = f("select", { options: [{ value: 1, label: "One" }, "two"] });
    expect(optionsOf(sel)).toEqual([
      { value: 1, label: "One" },
      { value: "two", label: "two" },
    ]);
    expect(parseValue(sel, "1")).toEqual({ value: 1 });
    expect(parseValue(f("radio", { options: ["a"] }), "a")).toEqual({ value: "a" });
    expect(parseValue({ ...sel, type: "multiselect" }, ["1", "two"])).toEqual({ value: [1, "two"] });
    expect(parseValue({ ...sel, type: "multiselect" }, [])).toEqual({ value: [] });
  });
  test("data-source rows become options by valueField and labelField", () => {
    const ds = f("select", { dataSource: "countries", valueField: "code", labelField: "name" });
    const opts = optionsFromRows(ds, [{ code: "PT", name: "Portugal" }]);
    expect(opts).toEqual([{ value: "PT", label: "Portugal" }]);
    expect(parseValue(ds, "PT", opts)).toEqual({ value: "PT" });
  });
  test("user and file fields hold ids as text", () => {
    expect(parseValue(f("user"), "u-1")).toEqual({ value: "u-1" });
    expect(parseValue(f("file"), "att-1")).toEqual({ value: "att-1" });
  });
});

describe("refusal in the console's words", () => {
  const schema = {
    fields: [
      { key: "days", type: "integer", label: "Days", required: true },
      { type: "section", label: "More", fields: [{ key: "kind", type: "select", required: true, options: ["a"] }] },
      { key: "items", type: "table", label: "Items", columns: [{ key: "sku", type: "text", label: "SKU" }] },
    ],
  };
  test("each key named by its label (the key when there is none), table cells by table, row and column", () => {
    expect(labelOfKey(schema, "days")).toBe("Days");
    expect(labelOfKey(schema, "kind")).toBe("kind");
    expect(labelOfKey(schema, "items[1].sku")).toBe("Items, row 2: SKU");
    expect(labelOfKey(schema, "items[0].nope")).toBeNull();
    expect(labelOfKey(schema, "elsewhere")).toBeNull();
  });
  test("the server's sentence is replaced when the form can name every field, kept otherwise", () => {
    const server = "Campos obrigatórios não preenchidos: days, kind";
    const req = (field: string) => ({ field, message: "required" });
    expect(refusalSummary(schema, [req("days"), req("kind")], server)).toBe(
      "Please fill in the required fields: Days, kind.",
    );
    expect(refusalSummary(schema, [req("days"), { field: "items[0].sku", message: "bad" }], server)).toBe(
      "Please correct the marked fields: Days, Items, row 1: SKU.",
    );
    expect(refusalSummary(schema, [req("days"), req("ghost")], server)).toBe(server);
    expect(refusalSummary(schema, [], "Definition suspended")).toBe("Definition suspended");
  });
});
