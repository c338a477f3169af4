import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { formForVersion, formVersionFor, missingRequiredFields } from "../../app/services/forms/task-forms";

describe("missingRequiredFields", () => {
  const schema = {
    fields: [
      { type: "heading", label: "Applicant" },
      { key: "kind", type: "radio", required: true, options: [{ value: "person" }, { value: "company" }] },
      { key: "companyName", type: "text", required: true, visibleIf: 'kind = "company"' },
      { key: "note", type: "textarea" },
      {
        type: "section",
        label: "Large loans",
        visibleIf: "amount > 10000",
        fields: [{ key: "guarantor", type: "user", required: true }],
      },
      { key: "amount", type: "currency", required: true },
      { key: "ref", type: "hidden", required: true },
    ],
  };

  test("lists every required field left empty, in form order", () => {
    expect(missingRequiredFields(schema, {})).toEqual(["kind", "amount"]);
  });

  test("a field hidden by its visibleIf rule is not required", () => {
    expect(missingRequiredFields(schema, { kind: "person", amount: 10 })).toEqual([]);
  });

  test("the same field becomes required once its rule shows it", () => {
    expect(missingRequiredFields(schema, { kind: "company", amount: 10 })).toEqual(["companyName"]);
    expect(missingRequiredFields(schema, { kind: "company", companyName: "ACME", amount: 10 })).toEqual([]);
  });

  test("a section hidden by its rule hides its required children; shown, they are required", () => {
    expect(missingRequiredFields(schema, { kind: "person", amount: 500 })).toEqual([]);
    expect(missingRequiredFields(schema, { kind: "person", amount: 50000 })).toEqual(["guarantor"]);
  });

  test("blank strings and empty lists count as not filled; zero and false values as filled", () => {
    const s = {
      fields: [
        { key: "a", type: "text", required: true },
        { key: "b", type: "multiselect", required: true },
        { key: "c", type: "number", required: true },
      ],
    };
    expect(missingRequiredFields(s, { a: "  ", b: [], c: 0 })).toEqual(["a", "b"]);
  });

  test("a required checkbox must be ticked", () => {
    const s = { fields: [{ key: "terms", type: "checkbox", required: true }] };
    expect(missingRequiredFields(s, { terms: false })).toEqual(["terms"]);
    expect(missingRequiredFields(s, { terms: true })).toEqual([]);
  });

  test("headings, sections and hidden fields are never reported", () => {
    const s = {
      fields: [
        { type: "heading", required: true },
        { type: "section", required: true, fields: [] },
        { key: "h", type: "hidden", required: true },
      ],
    };
    expect(missingRequiredFields(s, {})).toEqual([]);
  });

  test("required table: needs a row, and every required column in each row", () => {
    const s = {
      fields: [
        {
          key: "items",
          type: "table",
          required: true,
          columns: [
            { key: "sku", type: "text", required: true },
            { key: "qty", type: "integer", required: true, visibleIf: "sku != null" },
          ],
        },
      ],
    };
    expect(missingRequiredFields(s, { items: [] })).toEqual(["items"]);
    expect(missingRequiredFields(s, { items: [{ sku: "A", qty: 1 }, { qty: 2 }, { sku: "B" }] })).toEqual([
      "items[1].sku",
      "items[2].qty",
    ]);
  });

  test("a rule that cannot be evaluated keeps the field required", () => {
    const s = { fields: [{ key: "x", type: "text", required: true, visibleIf: "kind = " }] };
    expect(missingRequiredFields(s, {})).toEqual(["x"]);
  });

  test("components schemas honour validate.required, hidden and simple conditionals, including nested layouts", () => {
    const s = {
      components: [
        { key: "name", type: "textfield", input: true, validate: { required: true } },
        { key: "secret", type: "textfield", input: true, hidden: true, validate: { required: true } },
        {
          key: "vat",
          type: "textfield",
          input: true,
          validate: { required: true },
          conditional: { show: true, when: "kind", eq: "company" },
        },
        {
          type: "columns",
          input: false,
          columns: [{ components: [{ key: "city", type: "textfield", input: true, validate: { required: true } }] }],
        },
        {
          type: "panel",
          input: false,
          components: [{ key: "zip", type: "textfield", input: true, validate: { required: true } }],
        },
      ],
    };
    expect(missingRequiredFields(s, { kind: "person" })).toEqual(["name", "city", "zip"]);
    expect(missingRequiredFields(s, { kind: "company", name: "n", city: "c", zip: "z" })).toEqual(["vat"]);
  });

  test("accepts the schema as JSON text; unreadable schemas require nothing", () => {
    expect(missingRequiredFields(JSON.stringify(schema), { kind: "person" })).toEqual(["amount"]);
    expect(missingRequiredFields("not json", {})).toEqual([]);
    expect(missingRequiredFields({}, {})).toEqual([]);
  });
});

describe("formVersionFor and formForVersion", () => {
  let s: TestServer;
  let tenantId: string, modeler: string;
  const base = "/api/a/definitions/claim/forms";

  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "task-forms", sa);
    tenantId = t.id;
    modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  });
  afterAll(() => s.close());

  const db = () => s.platform.tenantDbs.get(tenantId);
  const v1 = { fields: [{ key: "a", type: "text", required: true }] };
  const v2 = { fields: [{ key: "b", type: "text", required: true }] };

  test("returns null when the process has no such form", () => {
    expect(formVersionFor(db(), "claim", "missing")).toBeNull();
    expect(formForVersion(db(), crypto.randomUUID())).toBeNull();
  });

  test("locks the latest version while none is published, then the published one", async () => {
    const f = await (
      await s.req("POST", base, { token: modeler, json: { key: "review", name: "Review", schema: v1 } })
    ).json();
    expect(formVersionFor(db(), "claim", "review")).toBe(f.latestVersionId);
    const saved = await (await s.req("PUT", `${base}/review`, { token: modeler, json: { schema: v2 } })).json();
    expect(formVersionFor(db(), "claim", "review")).toBe(saved.latestVersionId);
    await s.req("POST", `${base}/review/publish`, { token: modeler, json: { versionId: f.latestVersionId } });
    expect(formVersionFor(db(), "claim", "review")).toBe(f.latestVersionId);
    expect(formVersionFor(db(), "other-process", "review")).toBeNull();
  });

  test("a locked version keeps its schema after the form is edited", async () => {
    const f = await (
      await s.req("POST", base, { token: modeler, json: { key: "locked", name: "Locked", schema: v1 } })
    ).json();
    const locked = formVersionFor(db(), "claim", "locked")!;
    await s.req("PUT", `${base}/locked`, { token: modeler, json: { schema: v2 } });
    const form = formForVersion(db(), locked)!;
    expect(form).toMatchObject({
      versionId: f.latestVersionId,
      num: 1,
      processKey: "claim",
      formKey: "locked",
      name: "Locked",
      schema: v1,
    });
    expect(missingRequiredFields(form.schema, {})).toEqual(["a"]);
  });
});
