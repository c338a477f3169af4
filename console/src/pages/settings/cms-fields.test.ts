import { describe, expect, test } from "bun:test";
import { formatFields, fromInput, parseFields, toInput } from "./cms-fields";

describe("CMS field lines", () => {
  test("read back what is written: type, required, label, options", () => {
    const fields = [
      { name: "sku", type: "text", required: true, label: "Article" },
      { name: "size", type: "select", required: false, options: ["S", "M", "L"] },
      { name: "price", type: "number", required: false },
    ];
    expect(parseFields(formatFields(fields))).toEqual({ fields });
  });
  test("a property the lines do not show survives a change of the same field and type", () => {
    const previous = [{ name: "sku", type: "text", unique: true, maxLength: 20 }];
    expect(parseFields("sku: text! Code", previous)).toEqual({
      fields: [{ name: "sku", type: "text", unique: true, maxLength: 20, required: true, label: "Code" }],
    });
    expect(parseFields("sku: number", previous)).toEqual({
      fields: [{ name: "sku", type: "number", required: false }],
    });
  });
  test("an unknown type or a line without one is refused by its number", () => {
    expect(parseFields("a: text\nb: money")).toEqual({ error: expect.stringContaining("Line 2") });
    expect(parseFields("just words")).toEqual({ error: expect.stringContaining("Line 1") });
  });
});

describe("CMS record values", () => {
  test("typed from the form's text and shown back", () => {
    const price = { name: "price", type: "number" };
    expect(fromInput(price, " 12.5 ")).toBe(12.5);
    expect(fromInput(price, "")).toBeUndefined();
    expect(() => fromInput({ name: "qty", type: "integer", label: "Quantity" }, "1.5")).toThrow(
      "Quantity: not a whole number.",
    );
    expect(fromInput({ name: "ok", type: "boolean" }, "true")).toBe(true);
    const tags = { name: "tags", type: "multiselect" };
    expect(fromInput(tags, "a, b")).toEqual(["a", "b"]);
    expect(toInput(tags, ["a", "b"])).toBe("a, b");
    const meta = { name: "meta", type: "json" };
    expect(fromInput(meta, toInput(meta, { x: 1 }))).toEqual({ x: 1 });
    expect(() => fromInput(meta, "{")).toThrow("meta: not JSON.");
  });
});
