import { afterAll, beforeAll, expect } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";

export let s: TestServer;
export let mgr: string;
export let user: string;
export let otherAdmin: string;
export let people: string;
export let cities: string;
export const base = () => `/api/a/cms/collections/${people}/records`;
export const post = (values: unknown) => s.req("POST", base(), { token: mgr, json: { values } });
export const list = async (qs: string) => {
  const res = await s.req("GET", `${base()}?${qs}`, { token: user });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    content: { id: string; values: Record<string, unknown> }[];
    totalElements: number;
    size: number;
    totalPages: number;
  };
};

/** Registers the suite's setup: a test server, the tenant and users its scenarios share. */
export function useCmsRecordsScenario(): void {
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
}
