import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, login, saToken, userInTenant } from "../harness/fixtures";
import { browse, startTestOidc, type TestOidc } from "../harness/oidc";

const PUBLIC = "http://pms.test.local";
let s: TestServer;
let idp: TestOidc;
let sa: string;
let connectionId: string;

const toApp = (path: string, headers?: Record<string, string>) => s.req("GET", path, { headers });
/** A request of the browser that holds `jar`'s cookies (the binding cookie set at authorize). */
const asBrowser = (jar: Map<string, string>, path: string) =>
  toApp(path, { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") });
/** The whole flow in a browser; answers the service's last redirect (to the frontend, with its code) or error. */
async function signIn(loginAs: string, connection = "corp") {
  return browse({
    start: `${PUBLIC}/api/auth/sso/${connection}/authorize`,
    appOrigin: PUBLIC,
    toApp,
    login: loginAs,
    stopAt: `${PUBLIC}/sso/complete`,
  });
}
const codeOf = (url: string) => new URL(url).searchParams.get("code") as string;
const exchange = (code: string) => s.req("POST", "/api/auth/sso/exchange", { json: { code } });
/** Runs the flow up to the provider's redirect back to the callback (not yet delivered to the service). */
const untilCallback = (loginAs: string) =>
  browse({
    start: `${PUBLIC}/api/auth/sso/corp/authorize`,
    appOrigin: PUBLIC,
    toApp,
    login: loginAs,
    stopAt: `${PUBLIC}/api/auth/sso/callback`,
  });

beforeAll(async () => {
  idp = await startTestOidc(`${PUBLIC}/api/auth/sso/callback`, {
    alice: { email: "alice@corp.test", email_verified: true },
    newbie: { email: "newbie@corp.test", email_verified: true },
    unverified: { email: "shy@corp.test", email_verified: false },
    outsider: { email: "eve@other.test", email_verified: true },
    gone: { email: "gone@corp.test", email_verified: true },
  });
  s = await startTestServer({ env: { PUBLIC_URL: PUBLIC, SSO_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });
  sa = await saToken(s);
  for (const [email, firstName] of [
    ["alice@corp.test", "Alice"],
    ["gone@corp.test", "Gone"],
  ])
    expect(
      (await s.req("POST", "/api/admin/users", { token: sa, json: { email, password: "Password-123", firstName } }))
        .status,
    ).toBe(201);
});
afterAll(async () => {
  await s.close();
  await idp.close();
});

describe("SSO connections (/admin/sso)", () => {
  test("a SUPER_ADMIN creates a connection after discovery; the client secret is never returned nor stored plain", async () => {
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
    const text = await res.text();
    expect(text).not.toContain(idp.clientSecret);
    connectionId = JSON.parse(text).id;
    expect(await (await s.req("GET", "/api/admin/sso", { token: sa })).text()).not.toContain(idp.clientSecret);
    const raw = s.platform.platformSqlite.query("SELECT client_secret_sealed AS v FROM sso_connections").get() as {
      v: string;
    };
    expect(raw.v).not.toContain(idp.clientSecret);
  });

  test("a failing discovery answers 400 naming the problem; bad bodies 400; others than SUPER_ADMIN 403", async () => {
    const body = {
      name: "bad",
      issuer: "http://127.0.0.1:9/nothing",
      clientId: "x",
      clientSecret: "y",
      allowedDomains: ["corp.test"],
    };
    await expectError(await s.req("POST", "/api/admin/sso", { token: sa, json: body }), 400, /discovery/);
    await expectError(
      await s.req("POST", "/api/admin/sso", { token: sa, json: { ...body, issuer: "https://10.1.2.3" } }),
      400,
      /non-public/,
    );
    await expectError(await s.req("POST", "/api/admin/sso", { token: sa, json: { ...body, allowedDomains: [] } }), 400);
    const t = await createTenant(s, "sso-a", sa);
    const admin = (await userInTenant(s, t, "ADMIN", sa)).token;
    await expectError(await s.req("GET", "/api/admin/sso", { token: admin }), 403);
    await expectError(await s.req("POST", "/api/admin/sso", { token: admin, json: body }), 403);
    await expectError(await s.req("GET", "/api/admin/sso"), 401);
  });
});

describe("SSO sign-in (/auth/sso/**)", () => {
  test("the full code + PKCE flow signs an existing user in; password login keeps working", async () => {
    const start = await toApp("/api/auth/sso/corp/authorize");
    expect(start.status).toBe(302);
    const loc = new URL(start.headers.get("location") as string);
    expect(loc.searchParams.get("code_challenge_method")).toBe("S256");
    for (const p of ["state", "nonce", "code_challenge"]) expect(loc.searchParams.get(p)).toBeTruthy();
    const { url } = await signIn("alice");
    const res = await exchange(codeOf(url));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user.email).toBe("alice@corp.test");
    expect(body.accessToken).toBeTruthy();
    expect(body.refreshToken).toBeTruthy();
    await expectError(await exchange(codeOf(url)), 401);
    expect((await login(s, "alice@corp.test", "Password-123")).accessToken).toBeTruthy();
    expect((await s.req("GET", "/api/auth/me", { token: body.accessToken })).status).toBe(200);
  });

  test("auto-provisioning creates a user with no role and no membership", async () => {
    const { url } = await signIn("newbie");
    const body = await (await exchange(codeOf(url))).json();
    expect(body).toMatchObject({ user: { email: "newbie@corp.test" }, roles: [], tenants: [] });
    const row = s.platform.platformSqlite
      .query(
        "SELECT global_role AS r, (SELECT count(*) FROM memberships m WHERE m.user_id = u.id) AS n FROM users u WHERE email = ?",
      )
      .get("newbie@corp.test") as { r: string | null; n: number };
    expect(row).toEqual({ r: null, n: 0 });
  });

  test("an unverified e-mail, a domain not allowed and a deactivated user are refused", async () => {
    expect((await signIn("unverified")).last.status).toBe(403);
    expect((await signIn("outsider")).last.status).toBe(403);
    const gone = s.platform.platformSqlite.query("SELECT id FROM users WHERE email = 'gone@corp.test'").get() as {
      id: string;
    };
    expect((await s.req("DELETE", `/api/admin/users/${gone.id}`, { token: sa })).status).toBe(204);
    expect((await signIn("gone")).last.status).toBe(403);
  });

  test("without autoProvision an unknown user is refused", async () => {
    expect(
      (await s.req("PATCH", `/api/admin/sso/${connectionId}`, { token: sa, json: { autoProvision: false } })).status,
    ).toBe(200);
    idp.accounts.stranger = { email: "stranger@corp.test", email_verified: true };
    expect((await signIn("stranger")).last.status).toBe(403);
    await s.req("PATCH", `/api/admin/sso/${connectionId}`, { token: sa, json: { autoProvision: true } });
  });

  test("a tampered state, a replayed code and a wrong nonce are refused", async () => {
    const first = await untilCallback("alice");
    const tampered = new URL(first.url);
    tampered.searchParams.set("state", `${tampered.searchParams.get("state")}x`);
    expect((await asBrowser(first.appJar, tampered.pathname + tampered.search)).status).toBe(400);
    const cb = new URL(first.url);
    expect((await asBrowser(first.appJar, cb.pathname + cb.search)).status).toBe(302);
    // The same callback again: its state is used up.
    expect((await asBrowser(first.appJar, cb.pathname + cb.search)).status).toBe(400);
    // The used code under a fresh state: the provider refuses it.
    const started = await toApp("/api/auth/sso/corp/authorize");
    const fresh = new URL(started.headers.get("location") as string);
    const freshJar = new Map([
      (started.headers.getSetCookie()[0] as string).split(";")[0]!.split("=") as [string, string],
    ]);
    const replay = new URL(cb.href);
    replay.searchParams.set("state", fresh.searchParams.get("state") as string);
    expect((await asBrowser(freshJar, replay.pathname + replay.search)).status).toBe(401);
    // A nonce that does not match the ID token's.
    const second = await untilCallback("alice");
    const state = new URL(second.url).searchParams.get("state");
    s.platform.platformSqlite.query("UPDATE sso_flows SET nonce = 'forged' WHERE state = ?").run(state);
    const u = new URL(second.url);
    await expectError(await asBrowser(second.appJar, u.pathname + u.search), 401, /nonce/);
  });

  test("an unknown or disabled connection answers 404 and is not listed; a made-up exchange code 401", async () => {
    // The login page's list needs no token and shows names only (no issuer, client or domains).
    const listed = await toApp("/api/auth/sso/connections");
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([{ name: "corp" }]);
    await expectError(await toApp("/api/auth/sso/nope/authorize"), 404);
    await s.req("PATCH", `/api/admin/sso/${connectionId}`, { token: sa, json: { enabled: false } });
    expect(await (await toApp("/api/auth/sso/connections")).json()).toEqual([]);
    await expectError(await toApp("/api/auth/sso/corp/authorize"), 404);
    await expectError(await exchange("made-up"), 401);
    await expectError(await s.req("POST", "/api/auth/sso/exchange", { json: {} }), 400);
  });
});
