import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { startTestImap, type TestImap } from "../harness/imap";

let s: TestServer;
let imap: TestImap;
let admin: string, modeler: string, user: string, otherAdmin: string;

const inboxBody = (over: Record<string, unknown> = {}) => ({
  name: "Orders",
  host: imap.host,
  port: imap.port,
  tlsMode: "NONE",
  username: imap.user,
  passwordVariable: "IMAP_PASSWORD",
  pollIntervalSeconds: 30,
  ...over,
});
const putVar = (token: string, name: string, value: string, secret = true) =>
  s.req("PUT", `/api/a/variables/${name}`, { token, json: { value, secret } });

beforeAll(async () => {
  imap = await startTestImap();
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "mail-a", sa);
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  user = (await userInTenant(s, t, "USER", sa)).token;
  otherAdmin = (await userInTenant(s, await createTenant(s, "mail-b", sa), "ADMIN", sa)).token;
  expect((await putVar(admin, "IMAP_PASSWORD", imap.password)).status).toBe(200);
  expect((await putVar(admin, "MAIL_ALLOWED_PRIVATE_HOSTS", "127.0.0.1", false)).status).toBe(200);
});
afterAll(async () => {
  await s.close();
  await imap.close();
});

describe("mail inboxes", () => {
  let inboxId: string;

  test("an Admin saves an inbox whose login works; the password is never returned", async () => {
    const res = await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: inboxBody() });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(imap.password);
    const inbox = JSON.parse(text);
    expect(inbox).toMatchObject({
      name: "Orders",
      status: "ACTIVE",
      folder: "INBOX",
      afterRead: "FLAG",
      enabled: true,
    });
    expect(inbox.passwordVariable).toBe("IMAP_PASSWORD");
    inboxId = inbox.id;
    const all = await (await s.req("GET", "/api/a/mail-inboxes", { token: admin })).text();
    expect(all).toContain(inboxId);
    expect(all).not.toContain(imap.password);
  });

  test("a refused login answers 400 with the server's answer and saves nothing", async () => {
    await putVar(admin, "WRONG_PASSWORD", "not-the-password");
    const res = await s.req("POST", "/api/a/mail-inboxes", {
      token: admin,
      json: inboxBody({ name: "Bad", passwordVariable: "WRONG_PASSWORD" }),
    });
    await expectError(res, 400, /mail server refused.*(authentication|login)/i);
    const names = (
      (await (await s.req("GET", "/api/a/mail-inboxes", { token: admin })).json()) as { name: string }[]
    ).map((i) => i.name);
    expect(names).toEqual(["Orders"]);
  });

  test("the password must be a secret tenant variable; internal hosts need the tenant's allowance", async () => {
    await putVar(admin, "PLAIN_PW", imap.password, false);
    await expectError(
      await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: inboxBody({ passwordVariable: "PLAIN_PW" }) }),
      400,
      "secret tenant variable",
    );
    await expectError(
      await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: inboxBody({ passwordVariable: "MISSING" }) }),
      400,
      "secret tenant variable",
    );
    await putVar(otherAdmin, "IMAP_PASSWORD", imap.password);
    await expectError(
      await s.req("POST", "/api/a/mail-inboxes", { token: otherAdmin, json: inboxBody() }),
      400,
      /non-public/,
    );
  });

  test("malformed bodies answer 400", async () => {
    await expectError(await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: inboxBody({ port: 0 }) }), 400);
    await expectError(
      await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: inboxBody({ password: "x" }) }),
      400,
    );
    await expectError(
      await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: inboxBody({ afterRead: "MOVE" }) }),
      400,
      "moveToFolder",
    );
    await expectError(await s.req("POST", "/api/a/mail-inboxes", { token: admin, json: { name: "x" } }), 400);
  });

  test("Modelers see only id, name and status under /a/mail-rules/inboxes; inboxes themselves are Admin's", async () => {
    const res = await s.req("GET", "/api/a/mail-rules/inboxes", { token: modeler });
    expect(res.status).toBe(200);
    const list = (await res.json()) as Record<string, unknown>[];
    expect(list).toEqual([{ id: inboxId, name: "Orders", status: "ACTIVE" }]);
    await expectError(await s.req("GET", "/api/a/mail-inboxes", { token: modeler }), 403);
    await expectError(await s.req("GET", `/api/a/mail-inboxes/${inboxId}`, { token: modeler }), 403);
    await expectError(await s.req("POST", "/api/a/mail-inboxes", { token: modeler, json: inboxBody() }), 403);
    await expectError(await s.req("GET", "/api/a/mail-rules/inboxes", { token: user }), 403);
    const key = await apiKey(s, admin, ["read", "write"]);
    await expectError(await s.req("GET", "/api/a/mail-inboxes", { apiKey: key.key }), 403);
  });

  test("another tenant's inbox answers 404 on every route", async () => {
    await expectError(await s.req("GET", `/api/a/mail-inboxes/${inboxId}`, { token: otherAdmin }), 404);
    await expectError(
      await s.req("PATCH", `/api/a/mail-inboxes/${inboxId}`, { token: otherAdmin, json: { name: "x" } }),
      404,
    );
    await expectError(await s.req("DELETE", `/api/a/mail-inboxes/${inboxId}`, { token: otherAdmin }), 404);
    expect(await (await s.req("GET", "/api/a/mail-rules/inboxes", { token: otherAdmin })).json()).toEqual([]);
  });

  test("credentials that stop working set the inbox to ERROR with the server's message; a fixed PATCH clears it", async () => {
    await putVar(admin, "IMAP_PASSWORD", "rotated-elsewhere");
    await s.platform.mailPoller.pollAll({ force: true });
    const inbox = await (await s.req("GET", `/api/a/mail-inboxes/${inboxId}`, { token: admin })).json();
    expect(inbox.status).toBe("ERROR");
    expect(inbox.lastError).toMatch(/authentication|login/i);
    expect(inbox.lastPollAt).not.toBeNull();
    await expectError(
      await s.req("PATCH", `/api/a/mail-inboxes/${inboxId}`, { token: admin, json: { name: "Orders 2" } }),
      400,
      /mail server refused/,
    );
    await putVar(admin, "IMAP_PASSWORD", imap.password);
    const fixed = await s.req("PATCH", `/api/a/mail-inboxes/${inboxId}`, { token: admin, json: { name: "Orders 2" } });
    expect(fixed.status).toBe(200);
    expect(await fixed.json()).toMatchObject({ name: "Orders 2", status: "ACTIVE", lastError: null });
  });

  test("an Admin deletes an inbox", async () => {
    expect((await s.req("DELETE", `/api/a/mail-inboxes/${inboxId}`, { token: admin })).status).toBe(204);
    await expectError(await s.req("GET", `/api/a/mail-inboxes/${inboxId}`, { token: admin }), 404);
  });
});
