import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let admin: string;
let other: string;
let tenant: { id: string; slug: string };

beforeAll(async () => {
  // No WEBHOOKS_ALLOW_PRIVATE: every internal target is refused.
  s = await startTestServer();
  tenant = await createTenant(s, "hooks-a");
  const b = await createTenant(s, "hooks-b");
  admin = await saTenantToken(s, tenant);
  other = (await userInTenant(s, b, "ADMIN")).token;
});
afterAll(() => s.close());

const create = (token: string, url: string, events = ["task.created"]) =>
  s.req("POST", "/api/a/webhooks", { token, json: { url, events } });

describe("webhook targets pass the SSRF policy at creation", () => {
  const refused = [
    "http://127.0.0.1/hook",
    "http://localhost./hook",
    "http://localhost/hook",
    "http://[::1]/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://10.1.2.3/hook",
    "http://192.168.0.10/hook",
    "http://2130706433/hook",
    "http://0177.0.0.1/hook",
    "http://0x7f.0.0.1/hook",
    "http://[::ffff:127.0.0.1]/hook",
  ];
  for (const url of refused)
    test(`refuses ${url} with a 400 naming the reason`, async () => {
      const body = await expectError(await create(admin, url), 400, /url is refused/);
      expect(body.fieldErrors).toEqual([expect.objectContaining({ field: "url" })]);
    });

  test("refuses other schemes, credentials in the URL and garbage", async () => {
    await expectError(await create(admin, "ftp://example.com/x"), 400, /http or https/);
    await expectError(await create(admin, "http://u:p@example.com/x"), 400, /credentials/);
    await expectError(await create(admin, "not a url"), 400, /absolute/);
  });

  test("refuses unknown or empty event lists, naming the valid types", async () => {
    await expectError(await create(admin, "http://127.0.0.1/x", []), 400);
    const res = await s.req("POST", "/api/a/webhooks", {
      token: admin,
      json: { url: "http://93.184.215.14/hook", events: ["nope"] },
    });
    await expectError(res, 400, /process\.instance\.started/);
  });
});

describe("webhook administration", () => {
  test("is for tenant admins only: MODELER, MANAGER and USER get 403, an API key is refused", async () => {
    for (const role of ["MODELER", "MANAGER", "USER"] as const) {
      const u = await userInTenant(s, tenant, role);
      await expectError(await s.req("GET", "/api/a/webhooks", { token: u.token }), 403);
      await expectError(await create(u.token, "http://93.184.215.14/hook"), 403);
    }
    const key = await apiKey(s, admin, ["read", "write"]);
    const res = await s.req("GET", "/api/a/webhooks", { apiKey: key.key });
    expect(res.status).toBe(403);
  });

  test("shows the secret once, never on GET, and keeps it encrypted at rest", async () => {
    const res = await create(admin, "http://93.184.215.14/hook", ["task.created", "task.completed"]);
    expect(res.status).toBe(201);
    const hook = (await res.json()) as { id: string; secret: string; events: string[] };
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.events).toEqual(["task.created", "task.completed"]);
    const got = (await (await s.req("GET", `/api/a/webhooks/${hook.id}`, { token: admin })).json()) as object;
    expect(JSON.stringify(got)).not.toContain(hook.secret.slice(6));
    expect(got).not.toHaveProperty("secret");
    const list = await (await s.req("GET", "/api/a/webhooks", { token: admin })).text();
    expect(list).not.toContain(hook.secret.slice(6));
    const stored = s.platform.platformSqlite.query("SELECT secret_enc FROM webhooks WHERE id = ?").get(hook.id) as {
      secret_enc: string;
    };
    expect(stored.secret_enc).not.toContain(hook.secret.slice(6));
    expect(s.platform.webhooks.port.secrets.open(stored.secret_enc)).toBe(hook.secret);

    const rotated = (await (
      await s.req("POST", `/api/a/webhooks/${hook.id}/rotate-secret`, { token: admin })
    ).json()) as { secret: string };
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
  });

  test("updates, refuses an internal URL on update, and deletes", async () => {
    const hook = (await (await create(admin, "http://93.184.215.14/a")).json()) as { id: string };
    const upd = await s.req("PATCH", `/api/a/webhooks/${hook.id}`, {
      token: admin,
      json: { description: "orders", enabled: false, events: ["case.completed"] },
    });
    expect(upd.status).toBe(200);
    expect(await upd.json()).toMatchObject({ description: "orders", enabled: false, events: ["case.completed"] });
    await expectError(
      await s.req("PATCH", `/api/a/webhooks/${hook.id}`, { token: admin, json: { url: "http://10.0.0.5/" } }),
      400,
      /refused/,
    );
    expect((await s.req("DELETE", `/api/a/webhooks/${hook.id}`, { token: admin })).status).toBe(204);
    await expectError(await s.req("GET", `/api/a/webhooks/${hook.id}`, { token: admin }), 404);
  });

  test("answers 404 for another tenant's webhook on every route", async () => {
    const hook = (await (await create(admin, "http://93.184.215.14/b")).json()) as { id: string };
    const base = `/api/a/webhooks/${hook.id}`;
    await expectError(await s.req("GET", base, { token: other }), 404);
    await expectError(await s.req("PATCH", base, { token: other, json: { enabled: false } }), 404);
    await expectError(await s.req("DELETE", base, { token: other }), 404);
    await expectError(await s.req("POST", `${base}/rotate-secret`, { token: other }), 404);
    await expectError(await s.req("POST", `${base}/test`, { token: other }), 404);
    await expectError(await s.req("GET", `${base}/deliveries`, { token: other }), 404);
    await expectError(await s.req("POST", `${base}/deliveries/x/redeliver`, { token: other }), 404);
    expect(await (await s.req("GET", "/api/a/webhooks", { token: other })).json()).toEqual([]);
    expect((await s.req("GET", base, { token: admin })).status).toBe(200);
  });

  test("refuses a malformed body and an unknown delivery status filter", async () => {
    await expectError(await s.req("POST", "/api/a/webhooks", { token: admin, json: { events: [] } }), 400);
    const hook = (await (await create(admin, "http://93.184.215.14/c")).json()) as { id: string };
    await expectError(
      await s.req("GET", `/api/a/webhooks/${hook.id}/deliveries?status=LOST`, { token: admin }),
      400,
      /status/,
    );
  });
});
