import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, login, saToken, userInTenant } from "../harness/fixtures";

// Issue 17, defects 3, 6 and 7: the login limiter, token claims, tenant slug case.
let s: TestServer;
let tenant: { id: string; slug: string };
let admin: Awaited<ReturnType<typeof userInTenant>>;
const SECRET = "test-secret-with-enough-entropy-0123456789";

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  tenant = await createTenant(s, "Hard-Co", sa);
  admin = await userInTenant(s, tenant, "ADMIN", sa);
});
afterAll(() => s.close());

const loginAt = (email: string, password: string, ip: string) =>
  s.req("POST", "/api/auth/login", { json: { email, password }, ip });

describe("login limiter (defect 3)", () => {
  test("an attacker's failures back off exponentially at his address; the owner elsewhere still logs in", async () => {
    const attacker = "10.66.0.1";
    for (let i = 0; i < 5; i++) expect((await loginAt(admin.email, "wrong-password", attacker)).status).toBe(401);
    // The sixth failure starts the backoff: 1 s, then 2 s, 4 s...
    expect((await loginAt(admin.email, "wrong-password", attacker)).status).toBe(401);
    const first = await loginAt(admin.email, admin.password, attacker);
    await expectError(first, 429, /try again later/);
    expect(first.headers.get("retry-after")).toBe("1");
    s.clock.advance(1000);
    expect((await loginAt(admin.email, "wrong-password", attacker)).status).toBe(401);
    const second = await loginAt(admin.email, "wrong-password", attacker);
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("2");
    // The owner, at his own address, is not bound by the attacker's failures.
    expect((await loginAt(admin.email, admin.password, "10.77.0.1")).status).toBe(200);
    // The wait ends: the right password works again at the attacker's address after it.
    s.clock.advance(2000);
    expect((await loginAt(admin.email, admin.password, attacker)).status).toBe(200);
  });

  test("one address guessing across many accounts backs off too", async () => {
    const ip = "10.66.0.2";
    for (let i = 0; i < 21; i++) {
      s.clock.advance(3000); // below the per-minute attempt limit: only the failure backoff can stop it
      expect((await loginAt(`nobody${i}@test.local`, "wrong-password", ip)).status).toBe(401);
    }
    const refused = await loginAt(admin.email, admin.password, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("an API key over its limit answers 429 with Retry-After", async () => {
    const key = await apiKey(s, admin.token, ["read"], 1);
    expect((await s.req("GET", "/api/a/definitions", { apiKey: key.key })).status).toBe(200);
    const refused = await s.req("GET", "/api/a/definitions", { apiKey: key.key });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });

  test("password forgot over its limit answers 429 with Retry-After", async () => {
    const ip = "10.66.0.3";
    for (let i = 0; i < 5; i++)
      expect((await s.req("POST", "/api/auth/password/forgot", { json: { email: "a@b.c" }, ip })).status).toBe(202);
    const refused = await s.req("POST", "/api/auth/password/forgot", { json: { email: "a@b.c" }, ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("token claims (defect 6)", () => {
  const key = new TextEncoder().encode(SECRET);
  const claims = () => ({ sid: "s", roles: ["ADMIN"], tenant: tenant.id, tenantSlug: tenant.slug });

  test("our own tokens carry exp, iat and typ", async () => {
    const [h, p] = admin.token
      .split(".")
      .slice(0, 2)
      .map((x) => JSON.parse(Buffer.from(x, "base64url").toString()));
    expect(h).toMatchObject({ alg: "HS256", typ: "at+jwt" });
    expect(p.exp - p.iat).toBe(3600);
  });

  /** A token signed with our secret; each option left out drops that header field or claim. */
  const forge = (opts: { alg?: string; typ?: string | null; iat?: boolean; exp?: boolean }) => {
    const now = Math.floor(s.clock.now() / 1000);
    const typ = opts.typ === undefined ? "at+jwt" : opts.typ;
    const jwt = new SignJWT(claims())
      .setProtectedHeader(typ ? { alg: opts.alg ?? "HS256", typ } : { alg: opts.alg ?? "HS256" })
      .setSubject(admin.id);
    if (opts.iat !== false) jwt.setIssuedAt(now);
    if (opts.exp !== false) jwt.setExpirationTime(now + 600);
    return jwt.sign(key);
  };

  test("a correctly signed token without exp, without iat or without typ is refused", async () => {
    for (const t of [await forge({ exp: false }), await forge({ iat: false }), await forge({ typ: null })])
      await expectError(await s.req("GET", "/api/auth/me", { token: t }), 401);
    // The same construction with every claim passes: the refusals above are about the missing claim.
    expect((await s.req("GET", "/api/auth/me", { token: await forge({}) })).status).toBe(200);
  });

  test("another algorithm with the same secret (HS512) is refused", async () => {
    const hs512 = await forge({ alg: "HS512" });
    await expectError(await s.req("GET", "/api/auth/me", { token: hs512 }), 401);
  });
});

describe("tenant slugs (defect 7)", () => {
  test("created lowercase; select-tenant and X-Tenant-ID match it whatever the case", async () => {
    expect(tenant.slug).toBe("hard-co");
    const session = await login(s, admin.email, admin.password);
    for (const spelled of ["HARD-CO", "Hard-Co", " hard-co "]) {
      const sel = await s.req("POST", "/api/auth/select-tenant", {
        token: session.accessToken,
        json: { tenantSlug: spelled },
      });
      expect(sel.status).toBe(200);
      const { accessToken } = (await sel.json()) as { accessToken: string };
      const res = await s.req("GET", "/api/a/definitions", {
        token: accessToken,
        headers: { "x-tenant-id": "HARD-CO" },
      });
      expect(res.status).toBe(200);
    }
    // A slug the user is not a member of still answers 403.
    await expectError(
      await s.req("POST", "/api/auth/select-tenant", { token: session.accessToken, json: { tenantSlug: "OTHER" } }),
      403,
    );
  });

  test("a slug differing only in case cannot be created twice", async () => {
    const res = await s.req("POST", "/api/admin/tenants", {
      token: await saToken(s),
      json: { slug: "HARD-co", name: "dup" },
    });
    await expectError(res, 409);
  });
});
