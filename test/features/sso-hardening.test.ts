import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { expectError, saToken } from "../harness/fixtures";
import { browse, startTestOidc, type TestOidc } from "../harness/oidc";

// Issue 29: ID token signatures against the provider's keys, the browser binding of a sign-in (login CSRF), and
// providers that never send email_verified (Microsoft Entra ID).
const PUBLIC = "http://pms.test.local";
let s: TestServer;
let idp: TestOidc;
let sa: string;
let connectionId: string;

const toApp = (path: string, headers?: Record<string, string>) => s.req("GET", path, { headers });
const cookieOf = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
const flow = (login: string, stopAt = `${PUBLIC}/sso/complete`) =>
  browse({ start: `${PUBLIC}/api/auth/sso/corp/authorize`, appOrigin: PUBLIC, toApp, login, stopAt });
const untilCallback = (login: string) => flow(login, `${PUBLIC}/api/auth/sso/callback`);
const exchange = (url: string) =>
  s.req("POST", "/api/auth/sso/exchange", { json: { code: new URL(url).searchParams.get("code") } });
const count = (table: string) =>
  (s.platform.platformSqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const patch = (json: Record<string, unknown>) => s.req("PATCH", `/api/admin/sso/${connectionId}`, { token: sa, json });

beforeAll(async () => {
  idp = await startTestOidc(`${PUBLIC}/api/auth/sso/callback`, {
    alice: { email: "alice@corp.test", email_verified: true },
    // Entra ID: no email_verified; xms_edov says whether the tenant's owner verified the domain.
    entra: { email: "ent@corp.test", xms_edov: true, preferred_username: "ent@corp.test", tid: "t-1" },
    entraBare: { email: "bare@corp.test", preferred_username: "bare@corp.test", tid: "t-1" },
    entraUnowned: { email: "unowned@corp.test", xms_edov: false, tid: "t-1" },
    denied: { email: "denied@corp.test", email_verified: false },
  });
  s = await startTestServer({ env: { PUBLIC_URL: PUBLIC, SSO_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });
  sa = await saToken(s);
  const res = await s.req("POST", "/api/admin/sso", {
    token: sa,
    json: {
      name: "corp",
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      allowedDomains: ["corp.test"],
      autoProvision: true,
    },
  });
  expect(res.status).toBe(201);
  const body = await res.json();
  expect(body.trustEmailClaim).toBe(false);
  connectionId = body.id;
});
afterAll(async () => {
  await s.close();
  await idp.close();
});

describe("ID token signatures (plain http to an allowed internal provider)", () => {
  test("a genuine token signs in; a token naming the published kid but signed by another key is refused", async () => {
    const ok = await flow("alice");
    expect((await exchange(ok.url)).status).toBe(200);
    await idp.forge();
    const codes = count("sso_codes");
    const sessions = count("sessions");
    const forged = await flow("alice");
    await expectError(forged.last, 401, /signature/);
    expect(forged.url).not.toContain("/sso/complete");
    expect(count("sso_codes")).toBe(codes);
    expect(count("sessions")).toBe(sessions);
  });

  test("after a key rotation the new kid is fetched once and cached; sign-in works again", async () => {
    await idp.rotate();
    const before = idp.jwksFetches;
    const first = await flow("alice");
    expect(first.last.status).toBe(302);
    expect((await exchange(first.url)).status).toBe(200);
    expect(idp.jwksFetches).toBe(before + 1);
    const second = await flow("alice");
    expect((await exchange(second.url)).status).toBe(200);
    expect(idp.jwksFetches).toBe(before + 1);
  });
});

describe("the sign-in is bound to the browser that began it (login CSRF)", () => {
  test("authorize sets a short-lived HttpOnly SameSite=Lax cookie scoped to the SSO routes", async () => {
    const res = await toApp("/api/auth/sso/corp/authorize");
    expect(res.status).toBe(302);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("pms_sso_binding="));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/sso(;|$)/);
    expect(cookie).toMatch(/Max-Age=600/);
    // Only a hash is stored with the flow.
    const value = (cookie as string).split(";")[0]?.split("=")[1] as string;
    expect(JSON.stringify(s.platform.platformSqlite.query("SELECT * FROM sso_flows").all())).not.toContain(value);
  });

  test("browser A's callback URL opened in browser B (no cookie, or B's own) signs nobody in; A still finishes", async () => {
    const a = await untilCallback("alice");
    const cb = new URL(a.url);
    const codes = count("sso_codes");
    await expectError(await toApp(cb.pathname + cb.search), 403, /not started in this browser/);
    const b = await toApp("/api/auth/sso/corp/authorize");
    const bCookie = (b.headers.getSetCookie()[0] as string).split(";")[0] as string;
    await expectError(await toApp(cb.pathname + cb.search, { cookie: bCookie }), 403);
    await expectError(await toApp(cb.pathname + cb.search, { cookie: "pms_sso_binding=made-up" }), 403);
    expect(count("sso_codes")).toBe(codes);
    const done = await toApp(cb.pathname + cb.search, { cookie: cookieOf(a.appJar) });
    expect(done.status).toBe(302);
    expect(done.headers.getSetCookie().some((c) => /pms_sso_binding=;|Max-Age=0/i.test(c))).toBe(true);
    expect((await exchange(done.headers.get("location") as string)).status).toBe(200);
  });
});

describe("providers that send no email_verified (Microsoft Entra ID)", () => {
  test("refused by default: today's strictness stays", async () => {
    await expectError((await flow("entra")).last, 403, /verified e-mail/);
    await expectError((await flow("entraBare")).last, 403, /verified e-mail/);
  });

  test("with trustEmailClaim, Entra-shaped tokens sign in (xms_edov true, or no signal at all)", async () => {
    const res = await patch({ trustEmailClaim: true });
    expect(res.status).toBe(200);
    expect((await res.json()).trustEmailClaim).toBe(true);
    for (const login of ["entra", "entraBare"]) {
      const { url } = await flow(login);
      const body = await (await exchange(url)).json();
      expect(body.user.email).toBe(`${login === "entra" ? "ent" : "bare"}@corp.test`);
    }
  });

  test("an explicit denial is still refused with trustEmailClaim: email_verified false, xms_edov false", async () => {
    await expectError((await flow("denied")).last, 403, /verified e-mail/);
    await expectError((await flow("entraUnowned")).last, 403, /verified e-mail/);
  });

  test("trustEmailClaim must be a boolean, and only a SUPER_ADMIN sets it", async () => {
    await expectError(await patch({ trustEmailClaim: "yes" }), 400);
    await expectError(
      await s.req("PATCH", `/api/admin/sso/${connectionId}`, { json: { trustEmailClaim: false } }),
      401,
    );
  });
});
