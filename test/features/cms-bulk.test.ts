import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let mgr: string;
let col: string;
const fields = [
  { name: "sku", type: "text", required: true },
  { name: "price", type: "number" },
  { name: "code", type: "integer", unique: true },
];

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "cms-bulk", sa);
  mgr = (await userInTenant(s, t, "MANAGER", sa)).token;
});
afterAll(() => s.close());

async function freshCollection(name: string) {
  const res = await s.req("POST", "/api/a/cms/collections", {
    token: mgr,
    json: { name, fields, confidentiality: "PUBLIC" },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
const bulk = (body: unknown) => s.req("POST", `/api/a/cms/collections/${col}/records/bulk`, { token: mgr, json: body });
async function count() {
  const res = await s.req("GET", `/api/a/cms/collections/${col}/records?size=1`, { token: mgr });
  return ((await res.json()) as { totalElements: number }).totalElements;
}
const rows = (n: number, price = 1) => Array.from({ length: n }, (_, i) => ({ sku: `S${i}`, price, code: i }));

describe("CMS bulk load", () => {
  test("with keyField a second identical load updates instead of inserting (idempotent)", async () => {
    col = await freshCollection("idempotent");
    expect(await (await bulk({ records: rows(50), keyField: "sku" })).json()).toEqual({
      inserted: 50,
      updated: 0,
      total: 50,
    });
    expect(await (await bulk({ records: rows(50, 2), keyField: "sku" })).json()).toEqual({
      inserted: 0,
      updated: 50,
      total: 50,
    });
    expect(await count()).toBe(50);
    const page = await s.req("GET", `/api/a/cms/collections/${col}/records?filter.sku=S7`, { token: mgr });
    const body = (await page.json()) as { content: { values: { price: number } }[] };
    expect(body.content.map((r) => r.values.price)).toEqual([2]);
  });

  test("a load mixing new and existing keys reports both counts", async () => {
    const more = [...rows(3), { sku: "NEW", price: 5, code: 999 }];
    expect(await (await bulk({ records: more, keyField: "sku" })).json()).toEqual({
      inserted: 1,
      updated: 3,
      total: 4,
    });
  });

  test("without keyField every record is inserted", async () => {
    col = await freshCollection("no-key");
    const recs = rows(10).map(({ sku, price }) => ({ sku, price }));
    await bulk({ records: recs });
    expect(await (await bulk({ records: recs })).json()).toEqual({ inserted: 10, updated: 0, total: 10 });
    expect(await count()).toBe(20);
  });

  test("20,000 records are accepted and 20,001 answer 400 with nothing written", async () => {
    col = await freshCollection("limit");
    const ok = await bulk({ records: rows(20_000) });
    expect(await ok.json()).toEqual({ inserted: 20_000, updated: 0, total: 20_000 });
    await expectError(
      await bulk({ records: rows(20_001).map((r) => ({ ...r, code: r.code + 100_000 })) }),
      400,
      /20000/,
    );
    expect(await count()).toBe(20_000);
  });

  test("a keyField longer than 100 characters answers 400", async () => {
    await expectError(await bulk({ records: rows(1), keyField: "k".repeat(101) }), 400, /100/);
  });

  test("an unknown or non-scalar keyField answers 400", async () => {
    await expectError(await bulk({ records: rows(1), keyField: "nope" }), 400, /not a field/);
  });

  test("one invalid record refuses the whole load, names its index, and writes nothing", async () => {
    col = await freshCollection("transactional");
    const recs: unknown[] = rows(30);
    recs[17] = { sku: "S17", price: "cheap", code: 17 };
    recs[21] = { price: 3, code: 21 };
    const res = await bulk({ records: recs, keyField: "sku" });
    const body = (await expectError(res, 400, /nothing was written/)) as { fieldErrors: { field: string }[] };
    const named = body.fieldErrors.map((e) => e.field);
    expect(named).toContain("records[17].price");
    expect(named).toContain("records[21].sku");
    expect(await count()).toBe(0);
  });

  test("a duplicate unique value inside one load refuses it", async () => {
    const res = await bulk({
      records: [
        { sku: "A", code: 1 },
        { sku: "B", code: 1 },
      ],
    });
    const body = (await expectError(res, 400)) as { fieldErrors: { field: string }[] };
    expect(body.fieldErrors.map((e) => e.field)).toEqual(["records[1].code"]);
    expect(await count()).toBe(0);
  });

  test("a key repeated inside one load is refused as ambiguous", async () => {
    const res = await bulk({
      records: [
        { sku: "A", code: 1 },
        { sku: "A", code: 2 },
      ],
      keyField: "sku",
    });
    await expectError(res, 400);
    expect(await count()).toBe(0);
  });

  test("a malformed body answers 400", async () => {
    await expectError(await bulk({ records: "nope" }), 400);
    await expectError(await bulk({ records: [5] }), 400);
  });
});
