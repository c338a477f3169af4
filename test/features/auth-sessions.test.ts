import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { startTestServer, SA_EMAIL, SA_PASSWORD, type TestServer } from "../harness/server";
import { createTenant, expectError, login, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let tenantA: { id: string; slug: string };
let tenantB: { id: string; slug: string };
let userA: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  tenantA = await createTenant(s, "alpha", sa);
  tenantB = await createTenant(s, "beta", sa);
  userA = await userInTenant(s, tenantA, "USER", sa);
});
afterAll(() => s.close());

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("login", () => {
  test("answers tokens, the user, global roles and the user's tenants", async () => {
    const res = await s.req("POST", "/api/auth/login", { json: { email: userA.email, password: userA.password } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.accessToken).toBeString();
    expect(body.refreshToken).toBeString();
    expect(body.user).toEqual({ id: userA.id, email: userA.email, firstName: expect.any(String) });
    expect(body.roles).toEqual([]);
    expect(body.tenants).toEqual([{ id: tenantA.id, slug: "alpha", name: "Tenant alpha" }]);
  });

  test("refuses a wrong password and an unknown e-mail with 401", async () => {
    await expectError(
      await s.req("POST", "/api/auth/login", { json: { email: userA.email, password: "wrong-password" } }),
      401,
    );
    await expectError(
      await s.req("POST", "/api/auth/login", { json: { email: "nobody@x.y", password: "whatever1" } }),
      401,
    );
  });

  test("refuses a malformed body with 400 and field errors", async () => {
    const body = await expectError(await s.req("POST", "/api/auth/login", { json: { email: 5 } }), 400);
    expect(body.fieldErrors).toBeArray();
    await expectError(
      await s.req("POST", "/api/auth/login", { body: "{not json", headers: { "content-type": "application/json" } }),
      400,
    );
  });

  test("a token without a tenant cannot reach tenant routes", async () => {
    const pair = await login(s, userA.email, userA.password);
    await expectError(await s.req("GET", "/api/a/api-keys", { token: pair.accessToken }), 400, /select-tenant/);
  });
});

describe("select-tenant", () => {
  test("answers a token carrying the tenant and only the roles held there", async () => {
    const pair = await login(s, userA.email, userA.password);
    const res = await s.req("POST", "/api/auth/select-tenant", {
      token: pair.accessToken,
      json: { tenantSlug: "alpha" },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const claims = JSON.parse(Buffer.from(body.accessToken.split(".")[1], "base64url").toString());
    expect(claims.tenant).toBe(tenantA.id);
    expect(claims.roles).toEqual(["USER"]);
    expect(claims.sid).toBeString();
    expect(body.roles).toEqual(["USER"]);
  });

  test("answers 403 for a tenant the user is not a member of, and for an unknown slug", async () => {
    const pair = await login(s, userA.email, userA.password);
    await expectError(
      await s.req("POST", "/api/auth/select-tenant", { token: pair.accessToken, json: { tenantSlug: "beta" } }),
      403,
    );
    await expectError(
      await s.req("POST", "/api/auth/select-tenant", { token: pair.accessToken, json: { tenantSlug: "nope" } }),
      403,
    );
  });

  test("a SUPER_ADMIN may select any tenant", async () => {
    const sa = await saToken(s);
    const res = await s.req("POST", "/api/auth/select-tenant", { token: sa, json: { tenantSlug: "beta" } });
    expect(res.status).toBe(200);
  });

  test("requires a token", async () => {
    await expectError(await s.req("POST", "/api/auth/select-tenant", { json: { tenantSlug: "alpha" } }), 401);
  });
});

describe("refresh", () => {
  test("rotates: the new refresh token works, the old one is refused and revokes the session", async () => {
    const first = await login(s, userA.email, userA.password);
    const r1 = await s.req("POST", "/api/auth/refresh", { json: { refreshToken: first.refreshToken } });
    expect(r1.status).toBe(200);
    const second = await r1.json();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    // Reusing the first token is theft: the session ends, so even the fresh token stops working.
    await expectError(
      await s.req("POST", "/api/auth/refresh", { json: { refreshToken: first.refreshToken } }),
      401,
      /reuse/,
    );
    await expectError(await s.req("POST", "/api/auth/refresh", { json: { refreshToken: second.refreshToken } }), 401);
  });

  test("keeps the selected tenant of the session", async () => {
    const res = await s.req("POST", "/api/auth/refresh", { json: { refreshToken: userA.refreshToken } });
    expect(res.status).toBe(200);
    const body = await res.json();
    userA.refreshToken = body.refreshToken;
    const claims = JSON.parse(Buffer.from(body.accessToken.split(".")[1], "base64url").toString());
    expect(claims.tenant).toBe(tenantA.id);
  });

  test("refuses an unknown refresh token", async () => {
    await expectError(await s.req("POST", "/api/auth/refresh", { json: { refreshToken: "x.y" } }), 401);
  });
});

describe("logout", () => {
  test("ends only its own session: its refresh token stops, another login's keeps working", async () => {
    const one = await login(s, userA.email, userA.password);
    const two = await login(s, userA.email, userA.password);
    const out = await s.req("POST", "/api/auth/logout", { token: one.accessToken });
    expect(out.status).toBe(204);
    await expectError(await s.req("POST", "/api/auth/refresh", { json: { refreshToken: one.refreshToken } }), 401);
    const ok = await s.req("POST", "/api/auth/refresh", { json: { refreshToken: two.refreshToken } });
    expect(ok.status).toBe(200);
    // The access token itself stays valid until it expires (not checked against storage).
    expect((await s.req("GET", "/api/auth/me", { token: one.accessToken })).status).toBe(200);
  });
});

describe("me", () => {
  test("answers the user, their tenants and the session", async () => {
    const me = await s.req("GET", "/api/auth/me", { token: userA.token });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.email).toBe(userA.email);
    expect(body.tenant.slug).toBe("alpha");
    expect(body.tenantRoles).toEqual(["USER"]);
    const tenants = await (await s.req("GET", "/api/auth/me/tenants", { token: userA.token })).json();
    expect(tenants).toEqual([{ id: tenantA.id, slug: "alpha", name: "Tenant alpha", role: "USER" }]);
    const session = await (await s.req("GET", "/api/auth/me/session", { token: userA.token })).json();
    expect(session.tenantSlug).toBe("alpha");
    expect(session.sid).toBeString();
  });

  test("answers 401 without a token", async () => {
    await expectError(await s.req("GET", "/api/auth/me"), 401);
  });
});

describe("token tampering", () => {
  test("a token whose tenant claim was altered is refused", async () => {
    const [h, p, sig] = userA.token.split(".");
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    const forged = `${h}.${b64url({ ...claims, tenant: tenantB.id, tenantSlug: "beta" })}.${sig}`;
    await expectError(await s.req("GET", "/api/a/api-keys", { token: forged }), 401);
  });

  test("an unsigned token (alg none) is refused", async () => {
    const claims = JSON.parse(Buffer.from(userA.token.split(".")[1], "base64url").toString());
    const none = `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ ...claims, roles: ["ADMIN", "SUPER_ADMIN"] })}.`;
    await expectError(await s.req("GET", "/api/auth/me", { token: none }), 401);
    await expectError(await s.req("GET", "/api/admin/users", { token: none }), 401);
  });

  test("a token signed with another key is refused", async () => {
    const other = await new SignJWT({ sid: "x", roles: ["SUPER_ADMIN"] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(userA.id)
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-000"));
    await expectError(await s.req("GET", "/api/admin/users", { token: other }), 401);
  });

  test("an expired token answers 401", async () => {
    const pair = await login(s, userA.email, userA.password);
    expect((await s.req("GET", "/api/auth/me", { token: pair.accessToken })).status).toBe(200);
    s.clock.advance(3600_000 + 1000);
    try {
      await expectError(await s.req("GET", "/api/auth/me", { token: pair.accessToken }), 401);
    } finally {
      s.clock.advance(-(3600_000 + 1000));
    }
  });
});

describe("X-Tenant-ID", () => {
  test("the token's own slug is accepted and ignored", async () => {
    const res = await s.req("GET", "/api/auth/me", { token: userA.token, headers: { "x-tenant-id": "alpha" } });
    expect(res.status).toBe(200);
  });

  test("another slug, or a token without tenant, answers 400 pointing at select-tenant", async () => {
    await expectError(
      await s.req("GET", "/api/a/api-keys", { token: userA.token, headers: { "x-tenant-id": "beta" } }),
      400,
      /select-tenant/,
    );
    const pair = await login(s, userA.email, userA.password);
    await expectError(
      await s.req("GET", "/api/auth/me", { token: pair.accessToken, headers: { "x-tenant-id": "alpha" } }),
      400,
      /select-tenant/,
    );
  });
});

describe("rate limits", () => {
  test("failures from many addresses never lock the owner out at another address", async () => {
    const sa = await saToken(s);
    const email = "limited@test.local";
    await s.req("POST", "/api/admin/users", { token: sa, json: { email, password: "limited-pass-1", firstName: "L" } });
    for (let i = 0; i < 10; i++) {
      const r = await s.req("POST", "/api/auth/login", {
        json: { email, password: "bad-password" },
        ip: `10.1.0.${i}`,
      });
      expect(r.status).toBe(401);
    }
    expect(
      (await s.req("POST", "/api/auth/login", { json: { email, password: "limited-pass-1" }, ip: "10.1.1.1" })).status,
    ).toBe(200);
  });

  test("login is limited per IP, and the minute resets", async () => {
    const ip = "10.9.9.9";
    for (let i = 0; i < 20; i++) {
      await s.req("POST", "/api/auth/login", { json: { email: `x${i}@nowhere.test`, password: "bad-password" }, ip });
    }
    const refused = await s.req("POST", "/api/auth/login", { json: { email: SA_EMAIL, password: SA_PASSWORD }, ip });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectError(refused, 429);
    s.clock.advance(60_000);
    expect(
      (await s.req("POST", "/api/auth/login", { json: { email: SA_EMAIL, password: SA_PASSWORD }, ip })).status,
    ).toBe(200);
  });
});
