import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { rawMail, startTestImap, type TestImap } from "../harness/imap";
import { startTokenServer, type TestTokenServer } from "../harness/oauth-token-server";
import { deployBpmn } from "../harness/process";
import { startTestServer, type TestServer } from "../harness/server";

const CLIENT_ID = "pms-mail-client";
const CLIENT_SECRET = "client-secret-s3cr3t-value";
const model = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://t">
  <process id="oauthorder" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Handle order" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;

let s: TestServer;
let imap: TestImap;
let tokens: TestTokenServer;
let tenant: { id: string; slug: string };
let admin: string, modeler: string, otherAdmin: string;
/** Moves the service's clock; the Admin logs in again (sessions expire with the clock too). */
const advance = async (ms: number) => {
  s.clock.advance(ms);
  admin = (await userInTenant(s, tenant, "ADMIN", await saToken(s))).token;
};
let inboxId: string;

const oauthBody = (over: Record<string, unknown> = {}, oauth: Record<string, unknown> = {}) => ({
  name: "Orders (OAuth2)",
  host: imap.host,
  port: imap.port,
  tlsMode: "NONE",
  username: imap.user,
  pollIntervalSeconds: 30,
  oauth: {
    provider: "CUSTOM",
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    refreshToken: tokens.refreshToken,
    tokenUrl: tokens.url,
    scope: "imap",
    ...oauth,
  },
  ...over,
});
const getInbox = async () =>
  (await (await s.req("GET", `/api/a/mail-inboxes/${inboxId}`, { token: admin })).json()) as Record<string, unknown>;
const instances = async () =>
  (
    (await (await s.req("GET", "/api/a/instances?size=100", { token: admin })).json()) as {
      content: { definitionKey: string; variables?: unknown }[];
    }
  ).content.filter((i) => i.definitionKey === "oauthorder");

beforeAll(async () => {
  imap = await startTestImap("oauth@test.local", "imap-pass-2", { xoauth2: true });
  tokens = startTokenServer({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    onToken: (t) => imap.acceptAccessToken(t),
    rotate: true,
  });
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "oauth-a", sa);
  tenant = t;
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  otherAdmin = (await userInTenant(s, await createTenant(s, "oauth-b", sa), "ADMIN", sa)).token;
  const allow = { value: "127.0.0.1", secret: false };
  expect(
    (await s.req("PUT", "/api/a/variables/MAIL_ALLOWED_PRIVATE_HOSTS", { token: admin, json: allow })).status,
  ).toBe(200);
  await deployBpmn(s, modeler, model);
});
afterAll(async () => {
  await s?.close();
  await tokens?.close();
  await imap?.close();
});

describe("mail inboxes with OAuth2 (XOAUTH2)", () => {
  test("an Admin creates an OAuth2 inbox: a token is asked for, XOAUTH2 login tested; secrets never returned", async () => {
    const res = await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: oauthBody() });
    expect(res.status).toBe(201);
    const text = await res.text();
    for (const secret of [CLIENT_SECRET, tokens.refreshToken]) expect(text).not.toContain(secret);
    const inbox = JSON.parse(text);
    expect(inbox).toMatchObject({
      authMethod: "OAUTH2",
      passwordVariable: null,
      status: "ACTIVE",
      oauth: { provider: "CUSTOM", grant: "REFRESH_TOKEN", clientId: CLIENT_ID, tokenUrl: tokens.url, scope: "imap" },
    });
    expect(inbox.oauth.accessTokenExpiresAt).toBeString();
    inboxId = inbox.id;
    expect(tokens.grants).toHaveLength(1);
    expect(tokens.grants[0]).toMatchObject({ grantType: "refresh_token", clientId: CLIENT_ID, scope: "imap" });
    const all = await (await s.req("GET", "/api/a/mail-inboxes", { token: admin })).text();
    expect(all).toContain(inboxId);
    for (const secret of [CLIENT_SECRET, tokens.refreshToken, "at-1-"]) expect(all).not.toContain(secret);
    // Sealed at rest: no file of the service holds the client secret or the refresh token in plain.
    for (const path of new Bun.Glob("**/*").scanSync({ cwd: s.dataDir, absolute: true })) {
      const bytes = await Bun.file(path).text();
      expect(bytes.includes(CLIENT_SECRET) || bytes.includes(tokens.grants[0]?.refreshToken ?? "?")).toBe(false);
    }
  });

  test("the poller reads mail with XOAUTH2 and a rule starts an instance; the stored token is reused", async () => {
    const rule = await s.req("POST", "/api/a/mail-rules", {
      token: modeler,
      json: {
        name: "OAuth orders",
        definitionKey: "oauthorder",
        inboxId,
        match: { subjectContains: "order" },
        mapping: { subject: "mailSubject" },
      },
    });
    expect(rule.status).toBe(201);
    await imap.append(rawMail({ messageId: "oauth-1@customer.test", from: "a@customer.test", subject: "order 1" }));
    await s.platform.mailPoller.pollAll({ force: true });
    expect(await getInbox()).toMatchObject({ status: "ACTIVE", lastError: null });
    expect(await instances()).toHaveLength(1);
    expect(await imap.unread()).toEqual([]);
    expect(tokens.grants).toHaveLength(1); // the token from the save is still good
  });

  test("refusals: bad preset, missing client id, unsupported grant, refused client, internal token host", async () => {
    const post = (json: unknown, token = admin) => s.req("POST", "/api/a/mail-inboxes", { token, json });
    await expectError(await post(oauthBody({}, { provider: "YAHOO" })), 400);
    await expectError(await post(oauthBody({}, { clientId: undefined })), 400, "oauth.clientId");
    await expectError(await post(oauthBody({}, { refreshToken: undefined })), 400, "oauth.refreshToken");
    await expectError(await post(oauthBody({}, { provider: "GOOGLE", grant: "CLIENT_CREDENTIALS" })), 400, "grant");
    await expectError(
      await post(oauthBody({}, { provider: "MICROSOFT_365", grant: "CLIENT_CREDENTIALS", tokenUrl: undefined })),
      400,
      "tenantId",
    );
    await expectError(await post(oauthBody({}, { clientSecret: "wrong" })), 400, /invalid_client/);
    await expectError(await post(oauthBody({}, { tokenUrl: "ftp://x/token" })), 400);
    await expectError(
      await post(oauthBody({ authMethod: "PASSWORD", passwordVariable: "PW" })),
      400,
      "only for authMethod OAUTH2",
    );
    await expectError(await post(oauthBody({ passwordVariable: "PW" })), 400, "only for authMethod PASSWORD");
    await expectError(await post(oauthBody({}, { clientSecret: "x".repeat(8193) })), 400, "clientSecret");
    // The other tenant has no allowance for 127.0.0.1: its token endpoint there is refused before any request.
    const before = tokens.grants.length + tokens.refusals;
    await expectError(await post(oauthBody(), otherAdmin), 400, /token endpoint is refused.*non-public/);
    expect(tokens.grants.length + tokens.refusals).toBe(before);
    await expectError(await post(oauthBody(), modeler), 403);
    const names = ((await (await s.req("GET", "/api/a/mail-inboxes", { token: admin })).json()) as { name: string }[])
      .map((i) => i.name)
      .sort();
    expect(names).toEqual(["Orders (OAuth2)"]);
  });

  test("another tenant's OAuth2 inbox answers 404; a non-Admin 403", async () => {
    await expectError(await s.req("GET", `/api/a/mail-inboxes/${inboxId}`, { token: otherAdmin }), 404);
    await expectError(
      await s.req("PATCH", `/api/a/mail-inboxes/${inboxId}`, {
        token: otherAdmin,
        json: { oauth: { refreshToken: "x" } },
      }),
      404,
    );
    await expectError(await s.req("GET", `/api/a/mail-inboxes/${inboxId}`, { token: modeler }), 403);
    await expectError(
      await s.req("PATCH", `/api/a/mail-inboxes/${inboxId}`, { token: modeler, json: { oauth: { clientId: "x" } } }),
      403,
    );
  });
  test("the access token is refreshed shortly before it expires, with the rotated refresh token", async () => {
    const refusals = tokens.refusals;
    await advance(30 * 60_000); // half its life left: kept
    await s.platform.mailPoller.pollAll({ force: true });
    expect(tokens.grants).toHaveLength(1);
    const firstRotated = tokens.refreshToken;
    await advance(27 * 60_000); // 3 minutes left, inside the 5-minute margin: replaced before it lapses
    await imap.append(rawMail({ messageId: "oauth-2@customer.test", from: "a@customer.test", subject: "order 2" }));
    await s.platform.mailPoller.pollAll({ force: true });
    expect(tokens.grants).toHaveLength(2);
    // The endpoint rotated the refresh token at the first grant: the second one used the rotated one.
    expect(tokens.grants[1]?.refreshToken).toBe(firstRotated);
    expect(tokens.refusals).toBe(refusals);
    expect(await getInbox()).toMatchObject({ status: "ACTIVE", lastError: null });
    expect(await instances()).toHaveLength(2);
  });

  test("revoked consent sets the inbox to ERROR with a clear message; a PATCH with a new refresh token clears it", async () => {
    tokens.revoke();
    await advance(60 * 60_000); // the token expired: a new one is needed and refused
    await s.platform.mailPoller.pollAll({ force: true });
    const failed = await getInbox();
    expect(failed.status).toBe("ERROR");
    expect(failed.lastError).toMatch(/invalid_grant/);
    expect(failed.lastError).toMatch(/consent was revoked/);
    const fresh = tokens.consent();
    const res = await s.req("PATCH", `/api/a/mail-inboxes/${inboxId}`, {
      token: admin,
      json: { oauth: { refreshToken: fresh } },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain(fresh);
    expect(await getInbox()).toMatchObject({ status: "ACTIVE", lastError: null, oauth: { clientId: CLIENT_ID } });
    await imap.append(rawMail({ messageId: "oauth-3@customer.test", from: "a@customer.test", subject: "order 3" }));
    await s.platform.mailPoller.pollAll({ force: true });
    expect(await getInbox()).toMatchObject({ status: "ACTIVE", lastError: null });
    expect(await instances()).toHaveLength(3);
  });

  test("client credentials (the Microsoft 365 app-only grant) log in without a refresh token", async () => {
    const before = tokens.grants.length;
    const res = await s.req("POST", "/api/a/mail-inboxes", {
      token: admin,
      json: oauthBody(
        { name: "App-only" },
        { grant: "CLIENT_CREDENTIALS", refreshToken: undefined, scope: "https://outlook.office365.com/.default" },
      ),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).oauth.grant).toBe("CLIENT_CREDENTIALS");
    expect(tokens.grants.slice(before)).toEqual([
      {
        grantType: "client_credentials",
        clientId: CLIENT_ID,
        scope: "https://outlook.office365.com/.default",
        refreshToken: null,
      },
    ]);
  });

  test("a preset fills the token endpoint's scope (Google); its host and token URL may be overridden", async () => {
    const before = tokens.grants.length;
    const res = await s.req("POST", "/api/a/mail-inboxes", {
      token: admin,
      json: oauthBody({ name: "Google" }, { provider: "GOOGLE", scope: undefined, refreshToken: tokens.refreshToken }),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).oauth).toMatchObject({ provider: "GOOGLE", scope: "https://mail.google.com/" });
    expect(tokens.grants[before]?.scope).toBe("https://mail.google.com/");
  });
});
