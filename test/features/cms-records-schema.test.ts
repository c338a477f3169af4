import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let mgr: string;
let user: string;
let otherAdmin: string;
let people: string;
let cities: string;
const base = () => `/api/a/cms/collections/${people}/records`;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "cms-rec", sa);
  const other = await createTenant(s, "cms-other", sa);
  mgr = (await userInTenant(s, t, "MANAGER", sa)).token;
  user = (await userInTenant(s, t, "USER", sa)).token;
  otherAdmin = (await userInTenant(s, other, "ADMIN", sa)).token;
  const c = await s.req("POST", "/api/a/cms/collections", {
    token: mgr,
    json: {
      name: "cities",
      fields: [{ name: "name", type: "text", required: true, unique: true }],
      confidentiality: "PUBLIC",
    },
  });
  cities = ((await c.json()) as { id: string }).id;
  const p = await s.req("POST", "/api/a/cms/collections", {
    token: mgr,
    json: {
      name: "people",
      confidentiality: "PUBLIC",
      fields: [
        { name: "name", type: "text", required: true },
        { name: "bio", type: "longtext" },
        { name: "age", type: "integer" },
        { name: "score", type: "number" },
        { name: "active", type: "boolean" },
        { name: "born", type: "date" },
        { name: "seen", type: "datetime" },
        { name: "email", type: "email", unique: true },
        { name: "site", type: "url" },
        { name: "level", type: "select", options: ["junior", "senior"] },
        { name: "tags", type: "multiselect", options: ["a", "b", "c"] },
        { name: "city", type: "reference", collectionId: cities },
        { name: "extra", type: "json" },
      ],
    },
  });
  expect(p.status).toBe(201);
  people = ((await p.json()) as { id: string }).id;
});
afterAll(() => s.close());

const post = (values: unknown) => s.req("POST", base(), { token: mgr, json: { values } });
const _list = async (qs: string) => {
  const res = await s.req("GET", `${base()}?${qs}`, { token: user });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    content: { id: string; values: Record<string, unknown> }[];
    totalElements: number;
    size: number;
    totalPages: number;
  };
};

describe("CMS schema changes and emptying", () => {
  test("a field change that existing records do not fit is refused, a fitting one re-indexes", async () => {
    const c = await s.req("POST", "/api/a/cms/collections", {
      token: mgr,
      json: { name: "evolving", fields: [{ name: "n", type: "text" }], confidentiality: "PUBLIC" },
    });
    const id = ((await c.json()) as { id: string }).id;
    await s.req("POST", `/api/a/cms/collections/${id}/records/bulk`, {
      token: mgr,
      json: { records: [{ n: "1" }, { n: "x" }] },
    });
    await expectError(
      await s.req("PUT", `/api/a/cms/collections/${id}`, {
        token: mgr,
        json: {
          fields: [
            { name: "n", type: "text", required: true },
            { name: "m", type: "integer", required: true },
          ],
        },
      }),
      400,
      /do not fit/,
    );
    const ok = await s.req("PUT", `/api/a/cms/collections/${id}`, {
      token: mgr,
      json: {
        fields: [
          { name: "n", type: "text", unique: true },
          { name: "m", type: "integer" },
        ],
      },
    });
    expect(ok.status).toBe(200);
    const res = await s.req("GET", `/api/a/cms/collections/${id}/records?filter.n=x`, { token: mgr });
    expect(((await res.json()) as { totalElements: number }).totalElements).toBe(1);
    expect((await s.req("DELETE", `/api/a/cms/collections/${id}/records`, { token: mgr })).status).toBe(204);
    const after = await s.req("GET", `/api/a/cms/collections/${id}/records?filter.n=x`, { token: mgr });
    expect(((await after.json()) as { totalElements: number }).totalElements).toBe(0);
    expect((await s.req("DELETE", `/api/a/cms/collections/${id}`, { token: mgr })).status).toBe(204);
    await expectError(await s.req("GET", `/api/a/cms/collections/${id}`, { token: mgr }), 404);
  });
});

describe("CMS tenant isolation", () => {
  test("another tenant's collection and record ids answer 404 and reveal nothing", async () => {
    const rec = (await (await post({ name: "Secret person" })).json()) as { id: string };
    const list = await s.req("GET", "/api/a/cms/collections", { token: otherAdmin });
    expect(await list.json()).toEqual([]);
    await expectError(await s.req("GET", `/api/a/cms/collections/${people}`, { token: otherAdmin }), 404);
    await expectError(await s.req("GET", `${base()}`, { token: otherAdmin }), 404);
    await expectError(await s.req("GET", `${base()}/${rec.id}`, { token: otherAdmin }), 404);
    await expectError(
      await s.req("PUT", `${base()}/${rec.id}`, { token: otherAdmin, json: { values: { name: "x" } } }),
      404,
    );
    await expectError(await s.req("DELETE", `${base()}`, { token: otherAdmin }), 404);
    await expectError(await s.req("DELETE", `/api/a/cms/collections/${people}`, { token: otherAdmin }), 404);
    expect((await s.req("GET", `${base()}/${rec.id}`, { token: mgr })).status).toBe(200);
  });
});
