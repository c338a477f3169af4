import { describe, expect, test } from "bun:test";
import { admin, refreshAdmin, rx, s, tenant, useWebhookScenario } from "./webhooks.setup";
import { createHmac } from "node:crypto";
import { createTenant, expectError, login, userInTenant } from "../harness/fixtures";
import { startProcess } from "../harness/process";
import type { Received } from "../harness/webhook-receiver";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../app/services/webhooks/schedule";

// Secret rotation without downtime (the replaced secret keeps signing beside the new one for a grace period, both in
// webhook-signature) and the rule that disables an endpoint whose delivery ends FAILED, a lone one included.

useWebhookScenario("rotate");

const dispatch = () => s.platform.webhooks.dispatcher.runOnce();
async function hook() {
  const res = await s.req("POST", "/api/a/webhooks", {
    token: admin,
    json: { url: `${rx.url}/hook`, events: ["process.instance.started"] },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; secret: string };
}
const rotate = async (id: string, json?: unknown) =>
  s.req("POST", `/api/a/webhooks/${id}/rotate-secret`, { token: admin, ...(json === undefined ? {} : { json }) });
/** One event sent now; the request the receiver got. */
async function oneEvent(): Promise<Received> {
  await refreshAdmin();
  await startProcess(s, admin, { definitionKey: "approval" });
  await dispatch();
  const r = rx.received.at(-1);
  if (!r) throw new Error("nothing received");
  return r;
}
/**
 * Whether one of the request's signatures is `secret`'s, computed here from the Standard Webhooks definition
 * (HMAC-SHA256 over `id.timestamp.body`): the library's verifier also checks the timestamp against the real clock,
 * which the tests move by hours.
 */
function signedWith(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`)
    .digest("base64");
  return (r.headers["webhook-signature"] ?? "").split(" ").some((sig) => sig === `v1,${expected}`);
}

describe("secret rotation", () => {
  test("the replaced secret keeps signing beside the new one for 24 h, then stops", async () => {
    const h = await hook();
    const res = await rotate(h.id);
    expect(res.status).toBe(200);
    const rotated = (await res.json()) as { secret: string; previousSecretValidUntil: string };
    expect(rotated.secret).not.toBe(h.secret);
    expect(Date.parse(rotated.previousSecretValidUntil) - s.clock.now()).toBe(24 * 3_600_000);
    const during = await oneEvent();
    expect(during.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    // The standard's own verifier accepts either secret (real time here: the clock has not moved yet).
    expect(rx.verify(h.secret, during).type).toBe("process.instance.started");
    expect(rx.verify(rotated.secret, during).type).toBe("process.instance.started");
    s.clock.advance(24 * 3_600_000);
    const after = await oneEvent();
    expect(after.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(signedWith(rotated.secret, after)).toBe(true);
    expect(signedWith(h.secret, after)).toBe(false);
    const got = await (await s.req("GET", `/api/a/webhooks/${h.id}`, { token: admin })).json();
    expect(got.secret).toBeUndefined();
  });

  test("the grace period is chosen per rotation; 0 stops the old secret at once; only the last two ever sign", async () => {
    const h = await hook();
    const short = (await (await rotate(h.id, { graceSeconds: 3600 })).json()) as {
      secret: string;
      previousSecretValidUntil: string;
    };
    expect(Date.parse(short.previousSecretValidUntil) - s.clock.now()).toBe(3_600_000);
    const third = (await (await rotate(h.id)).json()) as { secret: string };
    const r = await oneEvent();
    expect(signedWith(third.secret, r)).toBe(true);
    expect(signedWith(short.secret, r)).toBe(true);
    expect(signedWith(h.secret, r)).toBe(false);
    const now = (await (await rotate(h.id, { graceSeconds: 0 })).json()) as {
      secret: string;
      previousSecretValidUntil: string | null;
    };
    expect(now.previousSecretValidUntil).toBeNull();
    const r2 = await oneEvent();
    expect(r2.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(signedWith(now.secret, r2)).toBe(true);
  });

  test("refuses a bad grace period, a non-Admin and another tenant's endpoint", async () => {
    const h = await hook();
    await expectError(await rotate(h.id, { graceSeconds: -1 }), 400, "graceSeconds");
    await expectError(await rotate(h.id, { graceSeconds: 8 * 24 * 3600 }), 400, "graceSeconds");
    await expectError(await rotate(h.id, { graceSeconds: "soon" }), 400, "graceSeconds");
    const modeler = (await userInTenant(s, tenant, "MODELER")).token;
    await expectError(await s.req("POST", `/api/a/webhooks/${h.id}/rotate-secret`, { token: modeler, json: {} }), 403);
    const other = (await userInTenant(s, await createTenant(s, "rotate-b"), "ADMIN")).token;
    await expectError(await s.req("POST", `/api/a/webhooks/${h.id}/rotate-secret`, { token: other, json: {} }), 404);
  });
});

/** Moves the clock to each retry as it falls due (jitter included) until no delivery is pending. */
async function exhaustRetries(midway?: () => Promise<void>) {
  for (let i = 0; i < RETRY_DELAYS_MS.length; i++) {
    const due = s.platform.platformSqlite
      .query("SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'PENDING'")
      .get() as { at: number | null };
    if (due.at === null) break;
    s.clock.advance(Math.max(0, due.at - s.clock.now()));
    await dispatch();
    if (i === RETRY_DELAYS_MS.length - 2) await midway?.();
  }
  await refreshAdmin();
}

describe("disabling", () => {
  test("a lone event that uses up its attempts disables the endpoint and tells the tenant's Admins", async () => {
    const owner = await userInTenant(s, tenant, "ADMIN");
    const h = await hook();
    rx.status(500);
    await oneEvent();
    await exhaustRetries();
    expect(rx.received).toHaveLength(MAX_ATTEMPTS);
    const got = (await (await s.req("GET", `/api/a/webhooks/${h.id}`, { token: admin })).json()) as {
      enabled: boolean;
      disabledReason: string;
    };
    expect(got.enabled).toBe(false);
    expect(got.disabledReason).toMatch(/failed all 8 attempts, with no successful delivery since/);
    const session = await login(s, owner.email, owner.password);
    const sel = await s.req("POST", "/api/auth/select-tenant", {
      token: session.accessToken,
      json: { tenantSlug: tenant.slug },
    });
    const ownerToken = ((await sel.json()) as { accessToken: string }).accessToken;
    const notes = JSON.stringify(await (await s.req("GET", "/api/a/notifications", { token: ownerToken })).json());
    expect(notes).toContain("WEBHOOK_DISABLED");
    expect(notes).toContain(h.id);
    // Disabled: a new event is not sent.
    const before = rx.received.length;
    await startProcess(s, admin, { definitionKey: "approval" });
    await dispatch();
    expect(rx.received.length).toBe(before);
  });

  test("a FAILED delivery does not disable an endpoint that answered another delivery meanwhile", async () => {
    const h = await hook();
    const failing = new Set<string>();
    rx.status(500);
    failing.add((await oneEvent()).headers["webhook-id"] ?? ""); // this event's every attempt fails
    rx.answer((r) => new Response("", { status: failing.has(r.headers["webhook-id"] ?? "") ? 500 : 200 }));
    // Before its last attempt another event gets through: the endpoint works, only that event does not.
    await exhaustRetries(async () => void (await oneEvent()));
    const list = (await (await s.req("GET", `/api/a/webhooks/${h.id}/deliveries`, { token: admin })).json()) as {
      content: { status: string }[];
    };
    expect(list.content.map((d) => d.status).sort()).toEqual(["FAILED", "SUCCEEDED"]);
    const got = (await (await s.req("GET", `/api/a/webhooks/${h.id}`, { token: admin })).json()) as {
      enabled: boolean;
    };
    expect(got.enabled).toBe(true);
  });
});
