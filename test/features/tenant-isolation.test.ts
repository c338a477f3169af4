import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let a: Awaited<ReturnType<typeof userInTenant>>;
let b: Awaited<ReturnType<typeof userInTenant>>;
let keyOfB: { id: string; key: string };

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const ta = await createTenant(s, "tenant-a", sa);
  const tb = await createTenant(s, "tenant-b", sa);
  a = await userInTenant(s, ta, "ADMIN", sa);
  b = await userInTenant(s, tb, "ADMIN", sa);
  keyOfB = await apiKey(s, b.token, ["read", "write"]);
});
afterAll(() => s.close());

describe("a user of tenant A with a token for A", () => {
  test("cannot see, change or delete tenant B's API keys (404)", async () => {
    const list = await (await s.req("GET", "/api/a/api-keys", { token: a.token })).json();
    expect(list.find((k: { id: string }) => k.id === keyOfB.id)).toBeUndefined();
    await expectError(
      await s.req("PATCH", `/api/a/api-keys/${keyOfB.id}`, { token: a.token, json: { scopes: ["read"] } }),
      404,
    );
    await expectError(await s.req("DELETE", `/api/a/api-keys/${keyOfB.id}`, { token: a.token }), 404);
    expect((await s.req("GET", "/api/a/api-keys", { token: b.token, headers: {} })).status).toBe(200);
  });

  test("cannot select tenant B, nor reach it with X-Tenant-ID", async () => {
    await expectError(
      await s.req("POST", "/api/auth/select-tenant", { token: a.token, json: { tenantSlug: "tenant-b" } }),
      403,
    );
    await expectError(
      await s.req("GET", "/api/a/api-keys", { token: a.token, headers: { "x-tenant-id": "tenant-b" } }),
      400,
    );
  });

  test("an API key of tenant B only ever acts in tenant B", async () => {
    const list = await (await s.req("GET", "/api/a/api-keys", { token: b.token })).json();
    expect(list.map((k: { id: string }) => k.id)).toContain(keyOfB.id);
    // The key carries no tenant role, so even its own tenant's Admin routes refuse it.
    await expectError(await s.req("GET", "/api/a/api-keys", { apiKey: keyOfB.key }), 403);
  });
});
