import { describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { s, mgr, otherAdmin, people, base, post, useCmsRecordsScenario } from "./cms-records.setup";

useCmsRecordsScenario();

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
