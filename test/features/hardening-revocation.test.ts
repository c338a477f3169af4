import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, login, saToken, userInTenant } from "../harness/fixtures";
import { createApp } from "../../app/http/app";
import { httpDepsOf } from "../../app/platform/http-deps";
import { createPlatform } from "../../app/platform/platform";

// Issue 17, defect 4: deactivation, a removed membership, a changed role and a suspended tenant take effect at once.
let s: TestServer;
let sa: string;
let tenant: { id: string; slug: string };

beforeAll(async () => {
  s = await startTestServer();
  sa = await saToken(s);
  tenant = await createTenant(s, "revoke", sa);
});
afterAll(() => s.close());

const membershipOf = async (userId: string) => {
  const list = (await (await s.req("GET", `/api/admin/tenants/${tenant.id}/members`, { token: sa })).json()) as {
    id: string;
    userId: string;
  }[];
  const m = list.find((x) => x.userId === userId);
  if (!m) throw new Error("no membership");
  return m.id;
};
const canRead = (token: string) => s.req("GET", "/api/a/definitions", { token });

describe("revocation without waiting for the token to expire", () => {
  test("a deactivated user's tokens stop at once, on /a and /auth", async () => {
    const u = await userInTenant(s, tenant, "ADMIN", sa);
    const plain = await login(s, u.email, u.password);
    expect((await canRead(u.token)).status).toBe(200);
    expect((await s.req("DELETE", `/api/admin/users/${u.id}`, { token: sa })).status).toBeLessThan(300);
    await expectError(await canRead(u.token), 401, /deactivated/);
    await expectError(await s.req("GET", "/api/auth/me", { token: plain.accessToken }), 401, /deactivated/);
    // Reactivated: the same (unexpired) token works again, its claims hold once more.
    const re = await s.req("PUT", `/api/admin/users/${u.id}`, { token: sa, json: { active: true } });
    expect(re.status).toBe(200);
    expect((await canRead(u.token)).status).toBe(200);
  });

  test("a removed member's tenant token stops at once; the user's other tenant-less token still works", async () => {
    const u = await userInTenant(s, tenant, "USER", sa);
    const plain = await login(s, u.email, u.password);
    const del = await s.req("DELETE", `/api/admin/tenants/${tenant.id}/members/${await membershipOf(u.id)}`, {
      token: sa,
    });
    expect(del.status).toBeLessThan(300);
    await expectError(await canRead(u.token), 401, /membership/);
    expect((await s.req("GET", "/api/auth/me", { token: plain.accessToken })).status).toBe(200);
  });

  test("a changed role stops the token carrying the old one; selecting the tenant again gives the new role", async () => {
    const u = await userInTenant(s, tenant, "ADMIN", sa);
    expect((await s.req("GET", "/api/a/api-keys", { token: u.token })).status).toBe(200);
    const patch = await s.req("PATCH", `/api/admin/tenants/${tenant.id}/members/${await membershipOf(u.id)}/role`, {
      token: sa,
      json: { role: "USER" },
    });
    expect(patch.status).toBe(200);
    await expectError(await s.req("GET", "/api/a/api-keys", { token: u.token }), 401, /role .* changed/);
    const plain = await login(s, u.email, u.password);
    const sel = await s.req("POST", "/api/auth/select-tenant", {
      token: plain.accessToken,
      json: { tenantSlug: tenant.slug },
    });
    const fresh = ((await sel.json()) as { accessToken: string }).accessToken;
    expect((await canRead(fresh)).status).toBe(200);
    await expectError(await s.req("GET", "/api/a/api-keys", { token: fresh }), 403);
  });

  test("a SUPER_ADMIN demoted loses /admin at once", async () => {
    const created = await s.req("POST", "/api/admin/users", {
      token: sa,
      json: { email: "sa2@test.local", password: "sa2-password-1", firstName: "S", roles: ["SUPER_ADMIN"] },
    });
    const { id } = (await created.json()) as { id: string };
    const sa2 = (await login(s, "sa2@test.local", "sa2-password-1")).accessToken;
    expect((await s.req("GET", "/api/admin/users", { token: sa2 })).status).toBe(200);
    expect((await s.req("PUT", `/api/admin/users/${id}`, { token: sa, json: { roles: [] } })).status).toBe(200);
    await expectError(await s.req("GET", "/api/admin/users", { token: sa2 }), 401, /SUPER_ADMIN/);
  });

  test("a suspended tenant's tokens stop at once", async () => {
    const other = await createTenant(s, "revoke-suspend", sa);
    const u = await userInTenant(s, other, "USER", sa);
    expect((await canRead(u.token)).status).toBe(200);
    expect((await s.req("PATCH", `/api/admin/tenants/${other.id}/suspend`, { token: sa })).status).toBe(200);
    await expectError(await canRead(u.token), 403, /suspended/);
  });

  test("after a restart the view is filled from the database: a deactivated user's token stays refused", async () => {
    const u = await userInTenant(s, tenant, "USER", sa);
    expect((await s.req("DELETE", `/api/admin/users/${u.id}`, { token: sa })).status).toBeLessThan(300);
    // A second service on the same data folder (as after a restart), its clock where the test's is.
    const again = createPlatform({
      config: s.platform.config,
      clock: s.clock,
      log: () => {},
      mailer: s.platform.mailer,
    });
    try {
      const app = createApp(httpDepsOf(again));
      const res = await app.request(
        "/api/a/definitions",
        { headers: { authorization: `Bearer ${u.token}` } },
        {
          ip: "10.0.0.1",
        },
      );
      await expectError(res, 401, /deactivated/);
      const ok = await app.request(
        "/api/a/definitions",
        {
          headers: { authorization: `Bearer ${(await userInTenant(s, tenant, "USER", sa)).token}` },
        },
        { ip: "10.0.0.1" },
      );
      expect(ok.status).toBe(200);
    } finally {
      await again.stop();
    }
  });
});
