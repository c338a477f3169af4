import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let admin: Awaited<ReturnType<typeof userInTenant>>;
let manager: Awaited<ReturnType<typeof userInTenant>>;
let tenant: { id: string; slug: string };

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  tenant = await createTenant(s, "keys", sa);
  admin = await userInTenant(s, tenant, "ADMIN", sa);
  manager = await userInTenant(s, tenant, "MANAGER", sa);
});
afterAll(() => s.close());

/** A path under /a/ that no route serves: passing the key filter shows as 404, failing it as 403. */
const PROBE = "/api/a/scope-probe";
const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

function setRawScopes(id: string, raw: string | null) {
  s.platform.platformSqlite.query("update api_keys set scopes = ? where id = ?").run(raw, id);
}

describe("API key management", () => {
  test("creates a key shown once, stored hashed, listed by prefix", async () => {
    const res = await s.req("POST", "/api/a/api-keys", { token: admin.token, json: { name: "erp", scopes: ["read"] } });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.key).toStartWith(`pms_${created.prefix}_`);
    expect(created.rateLimitPerMinute).toBe(100);
    const list = await (await s.req("GET", "/api/a/api-keys", { token: admin.token })).json();
    const row = list.find((k: { id: string }) => k.id === created.id);
    expect(row.prefix).toBe(created.prefix);
    expect(row.key).toBeUndefined();
    const stored = s.platform.platformSqlite.query("select * from api_keys where id = ?").get(created.id) as Record<
      string,
      string
    >;
    expect(JSON.stringify(stored)).not.toContain(created.key);
  });

  test("refuses missing, empty or unknown scopes with 400 naming the valid scopes", async () => {
    for (const scopes of [undefined, [], ["admin"], "read", [1]]) {
      await expectError(
        await s.req("POST", "/api/a/api-keys", { token: admin.token, json: { name: "bad", scopes } }),
        400,
        /read, write/,
      );
    }
  });

  test("PATCH keeps scopes when absent and replaces them when present", async () => {
    const k = await apiKey(s, admin.token, ["read"]);
    const renamed = await (
      await s.req("PATCH", `/api/a/api-keys/${k.id}`, { token: admin.token, json: { name: "renamed" } })
    ).json();
    expect(renamed.scopes).toEqual(["read"]);
    const replaced = await (
      await s.req("PATCH", `/api/a/api-keys/${k.id}`, { token: admin.token, json: { scopes: ["write"] } })
    ).json();
    expect(replaced.scopes).toEqual(["write"]);
    await expectError(
      await s.req("PATCH", `/api/a/api-keys/${k.id}`, { token: admin.token, json: { scopes: [] } }),
      400,
    );
  });

  test("deletes a key, after which it no longer authenticates", async () => {
    const k = await apiKey(s, admin.token, ["read"]);
    expect((await s.req("DELETE", `/api/a/api-keys/${k.id}`, { token: admin.token })).status).toBe(204);
    await expectError(await s.req("GET", PROBE, { apiKey: k.key }), 401);
    await expectError(await s.req("DELETE", `/api/a/api-keys/${k.id}`, { token: admin.token }), 404);
  });

  test("only an Admin manages keys: a Manager gets 403, and so does a key itself", async () => {
    await expectError(await s.req("GET", "/api/a/api-keys", { token: manager.token }), 403);
    await expectError(
      await s.req("POST", "/api/a/api-keys", { token: manager.token, json: { name: "x", scopes: ["read"] } }),
      403,
    );
    const both = await apiKey(s, admin.token, ["read", "write"]);
    await expectError(await s.req("GET", "/api/a/api-keys", { apiKey: both.key }), 403, /ADMIN/);
  });
});

describe("API key scope matrix", () => {
  const cases: { name: string; raw: string | null; allowed: (m: string) => boolean }[] = [
    { name: "read-only", raw: '["read"]', allowed: (m) => READS.has(m) },
    { name: "write-only", raw: '["write"]', allowed: (m) => !READS.has(m) },
    { name: "both", raw: '["read","write"]', allowed: () => true },
    { name: "empty list", raw: "[]", allowed: () => false },
    { name: "null", raw: null, allowed: () => false },
    { name: "malformed JSON", raw: "read,write", allowed: () => false },
    { name: "not a list", raw: '{"read":true}', allowed: () => false },
    { name: "unknown scope only", raw: '["admin"]', allowed: () => false },
    { name: "unknown scope beside read", raw: '["read","superuser"]', allowed: (m) => READS.has(m) },
  ];
  for (const c of cases) {
    test(`${c.name} key: each method passes or is stopped before any route`, async () => {
      const k = await apiKey(s, admin.token, ["read"], 0);
      setRawScopes(k.id, c.raw);
      for (const m of METHODS) {
        const res = await s.req(m, PROBE, { apiKey: k.key });
        if (c.allowed(m)) {
          expect({ m, status: res.status }).toEqual({ m, status: 404 });
        } else {
          expect({ m, status: res.status }).toEqual({ m, status: 403 });
          if (m !== "HEAD") {
            const body = await res.json();
            expect(Object.keys(body).sort()).toEqual(["error", "message"]);
            expect(body.error).toBe("Forbidden");
            expect(body.message).toContain(READS.has(m) ? "'read'" : "'write'");
          }
        }
      }
    });
  }

  test("an invalid key answers 401", async () => {
    await expectError(await s.req("GET", PROBE, { apiKey: "pms_AAAAAAAAAAAA_notarealkeynotarealkey" }), 401);
    await expectError(await s.req("GET", PROBE, { apiKey: "garbage" }), 401);
  });
});

describe("API key rate limit", () => {
  test("over the per-minute limit answers 429 {error, message}, and the next minute passes again", async () => {
    const k = await apiKey(s, admin.token, ["read"], 3);
    for (let i = 0; i < 3; i++) expect((await s.req("GET", PROBE, { apiKey: k.key })).status).toBe(404);
    const limited = await s.req("GET", PROBE, { apiKey: k.key });
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body).toEqual({ error: "Too Many Requests", message: expect.stringContaining("3") });
    s.clock.advance(60_000);
    expect((await s.req("GET", PROBE, { apiKey: k.key })).status).toBe(404);
  });

  test("a limit of 0 means unlimited", async () => {
    const k = await apiKey(s, admin.token, ["read"], 0);
    for (let i = 0; i < 150; i++) expect((await s.req("GET", PROBE, { apiKey: k.key })).status).toBe(404);
  });

  test("limits count per key, not per tenant", async () => {
    const a = await apiKey(s, admin.token, ["read"], 1);
    const b = await apiKey(s, admin.token, ["read"], 1);
    expect((await s.req("GET", PROBE, { apiKey: a.key })).status).toBe(404);
    expect((await s.req("GET", PROBE, { apiKey: a.key })).status).toBe(429);
    expect((await s.req("GET", PROBE, { apiKey: b.key })).status).toBe(404);
  });
});
