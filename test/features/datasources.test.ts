import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import type { CmsQuery } from "../../app/services/datasources/cms-registry";
import { cmsDataSourceQuery } from "../../app/services/cms/datasource-query";

let s: TestServer;
let admin: string, modeler: string, user: string, otherAdmin: string;
const base = "/api/a/forms/datasources";
const countries = {
  rows: [
    { code: "PT", name: "Portugal", region: "EU" },
    { code: "ES", name: "Spain", region: "EU" },
    { code: "BR", name: "Brazil", region: "SA" },
  ],
};

// The platform's CMS query port; a test may stand another in for its own duration.
let cmsQuery: CmsQuery = cmsDataSourceQuery;

beforeAll(async () => {
  s = await startTestServer({ cmsQuery: (ctx, q) => cmsQuery(ctx, q) });
  const sa = await saToken(s);
  const t = await createTenant(s, "ds-a", sa);
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  user = (await userInTenant(s, t, "USER", sa)).token;
  otherAdmin = (await userInTenant(s, await createTenant(s, "ds-b", sa), "ADMIN", sa)).token;
  await s.req("POST", base, {
    token: modeler,
    json: { key: "countries", name: "Countries", kind: "STATIC", config: countries },
  });
});
afterAll(() => s.close());
// Tests that install a stand-in query put the real one back.
afterEach(() => {
  cmsQuery = cmsDataSourceQuery;
});

const exec = (key: string, parameters?: unknown, token = user) =>
  s.req("POST", `${base}/${key}/execute`, { token, json: parameters === undefined ? {} : { parameters } });

describe("data source definitions", () => {
  test("a Modeler creates, reads, updates and deletes a data source", async () => {
    const created = await s.req("POST", base, {
      token: modeler,
      json: { key: "tmp", name: "Tmp", kind: "STATIC", config: { rows: [] } },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ key: "tmp", kind: "STATIC", config: { rows: [] } });
    const updated = await s.req("PUT", `${base}/tmp`, {
      token: modeler,
      json: { name: "Tmp 2", kind: "STATIC", config: { rows: [{ a: 1 }] } },
    });
    expect(await updated.json()).toMatchObject({ name: "Tmp 2", config: { rows: [{ a: 1 }] } });
    expect((await (await s.req("GET", `${base}/tmp`, { token: user })).json()).name).toBe("Tmp 2");
    const keys = (await (await s.req("GET", base, { token: user })).json()).map((d: { key: string }) => d.key);
    expect(keys).toEqual(["countries", "tmp"]);
    expect((await s.req("DELETE", `${base}/tmp`, { token: modeler })).status).toBe(204);
    await expectError(await s.req("GET", `${base}/tmp`, { token: user }), 404);
  });

  test("HTTP configurations get their defaults", async () => {
    const res = await s.req("POST", base, {
      token: modeler,
      json: { key: "remote", name: "Remote", kind: "HTTP", config: { url: "https://example.com/x" } },
    });
    expect((await res.json()).config).toMatchObject({
      method: "GET",
      timeoutMs: 10000,
      maxBytes: 1048576,
      headers: {},
    });
  });

  test("refuses an unknown kind (listing the kinds), a bad configuration and a duplicate key", async () => {
    await expectError(
      await s.req("POST", base, { token: modeler, json: { key: "k1", name: "K", kind: "SOAP", config: {} } }),
      400,
      /STATIC, HTTP, CMS/,
    );
    const bad = await expectError(
      await s.req("POST", base, {
        token: modeler,
        json: { key: "k2", name: "K", kind: "HTTP", config: { url: "ftp://x" } },
      }),
      400,
    );
    expect(JSON.stringify(bad.fieldErrors)).toContain("config.url");
    await expectError(
      await s.req("POST", base, {
        token: modeler,
        json: { key: "k3", name: "K", kind: "STATIC", config: { rows: "no" } },
      }),
      400,
    );
    await expectError(
      await s.req("POST", base, {
        token: modeler,
        json: { key: "countries", name: "K", kind: "STATIC", config: countries },
      }),
      409,
    );
  });

  test("every member (Auth, as the spec's table says) and a write-scope API key write; a read-only key cannot", async () => {
    expect(
      (await s.req("POST", base, { token: user, json: { key: "u", name: "U", kind: "STATIC", config: { rows: [] } } }))
        .status,
    ).toBe(201);
    expect((await s.req("DELETE", `${base}/u`, { token: user })).status).toBe(204);
    const key = await apiKey(s, admin, ["read", "write"]);
    expect(
      (
        await s.req("POST", base, {
          apiKey: key.key,
          json: { key: "u2", name: "U", kind: "STATIC", config: { rows: [] } },
        })
      ).status,
    ).toBe(201);
    const readOnly = await apiKey(s, admin, ["read"]);
    const refused = await s.req("DELETE", `${base}/u2`, { apiKey: readOnly.key });
    expect(refused.status).toBe(403);
    expect((await s.req("DELETE", `${base}/u2`, { apiKey: key.key })).status).toBe(204);
    expect((await s.req("GET", base, { apiKey: key.key })).status).toBe(200);
    expect((await s.req("POST", `${base}/countries/execute`, { apiKey: key.key, json: {} })).status).toBe(200);
  });

  test("another tenant's data source is not found", async () => {
    await expectError(await s.req("GET", `${base}/countries`, { token: otherAdmin }), 404);
    await expectError(await exec("countries", {}, otherAdmin), 404);
    await expectError(await s.req("DELETE", `${base}/countries`, { token: otherAdmin }), 404);
  });

  test("only an Admin may reference a secret variable", async () => {
    await s.req("POST", "/api/a/variables", { token: admin, json: { name: "TOKEN", value: "t", secret: true } });
    await s.req("POST", "/api/a/variables", { token: admin, json: { name: "HOST", value: "h" } });
    const cfg = (v: string) => ({ url: "https://example.com/", headers: { authorization: `Bearer {{var:${v}}}` } });
    await expectError(
      await s.req("POST", base, {
        token: modeler,
        json: { key: "sec", name: "S", kind: "HTTP", config: cfg("TOKEN") },
      }),
      403,
      /secret variables \(TOKEN\)/,
    );
    expect(
      (
        await s.req("POST", base, {
          token: modeler,
          json: { key: "plainvar", name: "S", kind: "HTTP", config: cfg("HOST") },
        })
      ).status,
    ).toBe(201);
    expect(
      (await s.req("POST", base, { token: admin, json: { key: "sec", name: "S", kind: "HTTP", config: cfg("TOKEN") } }))
        .status,
    ).toBe(201);
    await expectError(
      await s.req("PUT", `${base}/sec`, {
        token: modeler,
        json: { name: "S", kind: "HTTP", config: { ...cfg("TOKEN"), url: "https://evil.example/" } },
      }),
      403,
    );
  });
});

describe("executing", () => {
  test("a STATIC source answers its rows, filtered by the parameters", async () => {
    expect((await (await exec("countries")).json()).rows).toHaveLength(3);
    expect(
      (await (await exec("countries", { region: "eu" })).json()).rows.map((r: { code: string }) => r.code),
    ).toEqual(["PT", "ES"]);
    expect(
      (await (await exec("countries", { search: "bra" })).json()).rows.map((r: { code: string }) => r.code),
    ).toEqual(["BR"]);
    expect((await (await exec("countries", { region: "" })).json()).rows).toHaveLength(3);
    const noBody = await s.req("POST", `${base}/countries/execute`, { token: user });
    expect(noBody.status).toBe(200);
  });

  test("an unknown data source answers 404; malformed parameters 400", async () => {
    await expectError(await exec("nope"), 404);
    await expectError(
      await s.req("POST", `${base}/countries/execute`, { token: user, json: { parameters: [1] } }),
      400,
    );
  });

  test("a Modeler defines a CMS source over a collection, with a fixed filter", async () => {
    const created = await s.req("POST", base, {
      token: modeler,
      json: {
        key: "clients",
        name: "Clients",
        kind: "CMS",
        config: { collection: "clients", filter: { active: true } },
      },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ key: "clients", kind: "CMS" });
  });

  test("a CMS source queries the tenant's collection with the caller's clearance", async () => {
    const collection = (name: string, confidentiality: string) =>
      s.req("POST", "/api/a/cms/collections", {
        token: admin,
        json: {
          name,
          confidentiality,
          fields: [
            { name: "name", type: "text" },
            { name: "city", type: "text" },
          ],
        },
      });
    const pub = await (await collection("partners", "PUBLIC")).json();
    const sec = await (await collection("salaries", "SECRET")).json();
    for (const [c, name, city] of [
      [pub.id, "ACME", "Lisboa"],
      [pub.id, "Globex", "Porto"],
      [sec.id, "Boss", "Lisboa"],
    ]) {
      expect(
        (await s.req("POST", `/api/a/cms/collections/${c}/records`, { token: admin, json: { values: { name, city } } }))
          .status,
      ).toBe(201);
    }
    await s.req("POST", base, {
      token: modeler,
      json: { key: "partners", name: "Partners", kind: "CMS", config: { collection: "partners", filter: {} } },
    });
    await s.req("POST", base, {
      token: modeler,
      json: { key: "salaries", name: "Salaries", kind: "CMS", config: { collection: "salaries", filter: {} } },
    });
    const rows = (await (await exec("partners", { city: "Lisboa" })).json()).rows;
    expect(rows.map((r: { name: string }) => r.name)).toEqual(["ACME"]);
    // A USER's clearance is PUBLIC: the SECRET collection is refused, an Admin reads it.
    await expectError(await exec("salaries"), 403);
    expect((await (await exec("salaries", {}, admin)).json()).rows.map((r: { name: string }) => r.name)).toEqual([
      "Boss",
    ]);
  });

  test("once wired, a CMS source runs the query with the filter overlaid by the parameters", async () => {
    let seen: unknown;
    cmsQuery = (ctx, q) => {
      seen = { tenant: ctx.tenant.slug, ...q };
      return [{ id: "r1", name: "ACME" }];
    };
    const res = await exec("clients", { city: "Lisboa" });
    expect(await res.json()).toEqual({ rows: [{ id: "r1", name: "ACME" }] });
    expect(seen).toEqual({
      tenant: "ds-a",
      collection: "clients",
      filter: { active: true, city: "Lisboa" },
      limit: 100,
    });
  });
});
