import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { basic, type Listening, mcpClient, rawInitialize, startListening } from "../harness/mcp";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { BASIC_CACHE_MS } from "../../app/services/auth/basic";
import { LOGIN_LIMIT_PER_IP } from "../../app/services/auth/login";

// MCP's HTTP Basic credential is verified once, then remembered (docs/decisions.md, "MCP server (issue 13)"): the
// login limiter would otherwise cap a session at LOGIN_LIMIT_PER_IP requests a minute. What a hit still checks, and
// when the password is checked again, are proven here through the HTTP API. It slides with use (issue 28, part 7): a
// busy session is not hashed again every BASIC_CACHE_MS, an idle one is. Whether the password was checked again is
// seen through the login limiter: once this address has used up its login attempts, a check answers 429, a
// remembered credential still 200.
let L: Listening;
let sa: string;
let tenant: { id: string; slug: string };

beforeAll(async () => {
  L = await startListening();
  sa = await saToken(L.s);
  tenant = await createTenant(L.s, "basic-cache", sa);
});
afterAll(() => L?.close());

const init = (email: string, password: string, slug: string) =>
  rawInitialize(L.url, { authorization: basic(email, password), "x-tenant-id": slug });

const membershipOf = async (t: { id: string }, userId: string) => {
  const res = await L.s.req("GET", `/api/admin/tenants/${t.id}/members`, { token: sa });
  const m = ((await res.json()) as { id: string; userId: string }[]).find((x) => x.userId === userId);
  if (!m) throw new Error("no membership");
  return m.id;
};

describe("the remembered Basic credential", () => {
  test("is not checked again per request: more requests in a minute than the login limiter allows checks", async () => {
    const u = await userInTenant(L.s, tenant, "USER", sa);
    L.s.clock.advance(61_000); // a fresh window of the per-address login limiter
    for (let i = 0; i < LOGIN_LIMIT_PER_IP + 5; i++)
      expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
    // A wrong password is no hit: it is checked, and refused.
    await expectError(await init(u.email, "wrong-password", tenant.slug), 401);
  });

  test("a deactivated user or a removed membership is refused at the next request", async () => {
    for (const revoke of ["deactivate", "membership"] as const) {
      const u = await userInTenant(L.s, tenant, "ADMIN", sa);
      expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
      const done =
        revoke === "deactivate"
          ? await L.s.req("DELETE", `/api/admin/users/${u.id}`, { token: sa })
          : await L.s.req("DELETE", `/api/admin/tenants/${tenant.id}/members/${await membershipOf(tenant, u.id)}`, {
              token: sa,
            });
      expect(done.status).toBeLessThan(300);
      const res = await init(u.email, u.password, tenant.slug);
      await expectError(res, 401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="svc-mcp"');
    }
  });

  test("a changed role is not served from memory: the credential now stands for the new role", async () => {
    const u = await userInTenant(L.s, tenant, "ADMIN", sa);
    const asAdmin = await mcpClient(L.url, { email: u.email, password: u.password, tenant: tenant.slug });
    expect((await asAdmin.listTools()).tools.length).toBeGreaterThan(0);
    await asAdmin.close();
    const patch = await L.s.req(
      "PATCH",
      `/api/admin/tenants/${tenant.id}/members/${await membershipOf(tenant, u.id)}/role`,
      {
        token: sa,
        json: { role: "USER" },
      },
    );
    expect(patch.status).toBe(200);
    // A USER lists no tool: a remembered ADMIN identity would still list them.
    const asUser = await mcpClient(L.url, { email: u.email, password: u.password, tenant: tenant.slug });
    expect((await asUser.listTools()).tools).toEqual([]);
    await asUser.close();
  });

  test("a suspended tenant is refused at the next request", async () => {
    const other = await createTenant(L.s, "basic-cache-suspend", sa);
    const u = await userInTenant(L.s, other, "ADMIN", sa);
    expect((await init(u.email, u.password, other.slug)).status).toBe(200);
    expect((await L.s.req("PATCH", `/api/admin/tenants/${other.id}/suspend`, { token: sa })).status).toBe(200);
    await expectError(await init(u.email, u.password, other.slug), 403, /suspended/);
  });

  test("a changed password refuses the old one at the next request, without waiting for BASIC_CACHE_MS", async () => {
    sa = await saToken(L.s);
    const u = await userInTenant(L.s, tenant, "USER", sa);
    expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
    const set = await L.s.req("PUT", `/api/admin/users/${u.id}/password`, {
      token: sa,
      json: { password: "changed-password-2" },
    });
    expect(set.status).toBeLessThan(300);
    await expectError(await init(u.email, u.password, tenant.slug), 401);
    expect((await init(u.email, "changed-password-2", tenant.slug)).status).toBe(200);
  });
});

/** Spends this address's login attempts (unknown e-mails: no password is hashed for them). */
async function exhaustLogins() {
  for (let i = 0; i < LOGIN_LIMIT_PER_IP; i++)
    await fetch(new URL("/api/auth/login", L.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `nobody-${i}@example.test`, password: "whatever-123" }),
    });
}

describe("the remembered Basic credential slides with use", () => {
  test("used within BASIC_CACHE_MS each time, it outlives BASIC_CACHE_MS without the password being checked again", async () => {
    const u = await userInTenant(L.s, tenant, "USER", sa);
    L.s.clock.advance(61_000);
    expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
    const step = BASIC_CACHE_MS - 60_000;
    L.s.clock.advance(step);
    expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
    L.s.clock.advance(step); // now past BASIC_CACHE_MS since the password was checked, within it since the last use
    await exhaustLogins();
    expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
  });

  test("a slid credential is still refused at once when its user is deactivated", async () => {
    sa = await saToken(L.s);
    const u = await userInTenant(L.s, tenant, "USER", sa);
    L.s.clock.advance(16 * 60_000); // past every window and backoff of the previous test
    expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      L.s.clock.advance(BASIC_CACHE_MS - 60_000);
      expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
    }
    expect((await L.s.req("DELETE", `/api/admin/users/${u.id}`, { token: sa })).status).toBeLessThan(300);
    await expectError(await init(u.email, u.password, tenant.slug), 401);
  });

  test("idle for BASIC_CACHE_MS, the credential is checked again", async () => {
    sa = await saToken(L.s);
    const u = await userInTenant(L.s, tenant, "USER", sa);
    L.s.clock.advance(16 * 60_000); // past every window and backoff of the previous test
    expect((await init(u.email, u.password, tenant.slug)).status).toBe(200);
    L.s.clock.advance(BASIC_CACHE_MS + 1);
    await exhaustLogins();
    // Checked again, the password meets the spent limiter: a remembered credential would have answered 200.
    await expectError(await init(u.email, u.password, tenant.slug), 429);
  });
});
