import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
const tok: Record<string, string> = {};
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};
const fields = [{ name: "title", type: "text", required: true }];

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "cms-clear", sa);
  for (const role of ["ADMIN", "MANAGER", "MODELER", "USER"] as const)
    tok[role] = (await userInTenant(s, t, role, sa)).token;
  tok.SA = await saTenantToken(s, t);
  keys.read = (await apiKey(s, tok.ADMIN, ["read"])).key;
  keys.write = (await apiKey(s, tok.ADMIN, ["write"])).key;
  keys.both = (await apiKey(s, tok.ADMIN, ["read", "write"])).key;
  for (const level of ["PUBLIC", "SECRET", "TOP_SECRET"]) {
    const res = await s.req("POST", "/api/a/cms/collections", {
      token: tok.ADMIN,
      json: { name: `c-${level}`, fields, confidentiality: level },
    });
    expect(res.status).toBe(201);
    ids[level] = ((await res.json()) as { id: string }).id;
    const rec = await s.req("POST", `/api/a/cms/collections/${ids[level]}/records`, {
      token: tok.ADMIN,
      json: { values: { title: level } },
    });
    expect(rec.status).toBe(201);
  }
});
afterAll(() => s.close());

const visible: Record<string, string[]> = {
  USER: ["PUBLIC"],
  MODELER: ["PUBLIC"],
  MANAGER: ["PUBLIC", "SECRET"],
  ADMIN: ["PUBLIC", "SECRET", "TOP_SECRET"],
  SA: ["PUBLIC", "SECRET", "TOP_SECRET"],
};

describe("CMS clearance per role", () => {
  for (const [role, levels] of Object.entries(visible)) {
    test(`${role} lists only collections up to ${levels.at(-1)}`, async () => {
      const res = await s.req("GET", "/api/a/cms/collections", { token: tok[role] });
      expect(res.status).toBe(200);
      const got = ((await res.json()) as { confidentiality: string }[]).map((c) => c.confidentiality).sort();
      expect(got).toEqual([...levels].sort());
    });
    for (const level of ["PUBLIC", "SECRET", "TOP_SECRET"]) {
      const allowed = levels.includes(level);
      test(`${role} ${allowed ? "reads" : "is refused 403 on"} a ${level} collection and its records`, async () => {
        const detail = await s.req("GET", `/api/a/cms/collections/${ids[level]}`, { token: tok[role] });
        const records = await s.req("GET", `/api/a/cms/collections/${ids[level]}/records`, { token: tok[role] });
        if (allowed) {
          expect(detail.status).toBe(200);
          expect(records.status).toBe(200);
          expect(((await records.json()) as { totalElements: number }).totalElements).toBe(1);
        } else {
          await expectError(detail, 403, /above your clearance/);
          await expectError(records, 403);
        }
      });
    }
  }
});

describe("CMS classification and writes", () => {
  test("a Manager cannot classify a collection TOP_SECRET, neither on create nor on update", async () => {
    await expectError(
      await s.req("POST", "/api/a/cms/collections", {
        token: tok.MANAGER,
        json: { name: "ts", fields, confidentiality: "TOP_SECRET" },
      }),
      403,
    );
    await expectError(
      await s.req("PUT", `/api/a/cms/collections/${ids.SECRET}`, {
        token: tok.MANAGER,
        json: { confidentiality: "TOP_SECRET" },
      }),
      403,
    );
    const ok = await s.req("POST", "/api/a/cms/collections", {
      token: tok.MANAGER,
      json: { name: "mgr-secret", fields, confidentiality: "SECRET" },
    });
    expect(ok.status).toBe(201);
  });

  test("USER and MODELER cannot create collections or write records", async () => {
    for (const role of ["USER", "MODELER"]) {
      await expectError(
        await s.req("POST", "/api/a/cms/collections", {
          token: tok[role],
          json: { name: `x-${role}`, fields, confidentiality: "PUBLIC" },
        }),
        403,
      );
      await expectError(
        await s.req("POST", `/api/a/cms/collections/${ids.PUBLIC}/records`, {
          token: tok[role],
          json: { values: { title: "no" } },
        }),
        403,
      );
      await expectError(
        await s.req("POST", `/api/a/cms/collections/${ids.PUBLIC}/records/bulk`, {
          token: tok[role],
          json: { records: [] },
        }),
        403,
      );
      await expectError(
        await s.req("DELETE", `/api/a/cms/collections/${ids.PUBLIC}/records`, { token: tok[role] }),
        403,
      );
    }
  });
});

describe("CMS by API key (clearance fixed at PUBLIC)", () => {
  test("a read key lists only PUBLIC collections and is refused 403 on a SECRET one", async () => {
    const res = await s.req("GET", "/api/a/cms/collections", { apiKey: keys.read });
    expect(((await res.json()) as { confidentiality: string }[]).map((c) => c.confidentiality)).toEqual(["PUBLIC"]);
    await expectError(await s.req("GET", `/api/a/cms/collections/${ids.SECRET}/records`, { apiKey: keys.read }), 403);
    expect((await s.req("GET", `/api/a/cms/collections/${ids.PUBLIC}/records`, { apiKey: keys.read })).status).toBe(
      200,
    );
  });

  test("a read-only key cannot write records; a write-only key cannot read", async () => {
    const w = await s.req("POST", `/api/a/cms/collections/${ids.PUBLIC}/records`, {
      apiKey: keys.read,
      json: { values: { title: "k" } },
    });
    expect(w.status).toBe(403);
    expect((await s.req("GET", `/api/a/cms/collections/${ids.PUBLIC}/records`, { apiKey: keys.write })).status).toBe(
      403,
    );
  });

  test("a write key writes records of a PUBLIC collection but not of a SECRET one", async () => {
    const ok = await s.req("POST", `/api/a/cms/collections/${ids.PUBLIC}/records/bulk`, {
      apiKey: keys.both,
      json: { records: [{ title: "by key" }] },
    });
    expect(await ok.json()).toEqual({ inserted: 1, updated: 0, total: 1 });
    await expectError(
      await s.req("POST", `/api/a/cms/collections/${ids.SECRET}/records`, {
        apiKey: keys.both,
        json: { values: { title: "k" } },
      }),
      403,
    );
  });

  test("an API key never manages collections (it holds no Manager membership)", async () => {
    await expectError(
      await s.req("POST", "/api/a/cms/collections", {
        apiKey: keys.both,
        json: { name: "k", fields, confidentiality: "PUBLIC" },
      }),
      403,
    );
    await expectError(await s.req("DELETE", `/api/a/cms/collections/${ids.PUBLIC}`, { apiKey: keys.both }), 403);
  });
});
