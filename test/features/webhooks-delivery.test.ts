import { describe, expect, test } from "bun:test";
import { admin, refreshAdmin, rx, s, tenant, useWebhookScenario } from "./webhooks.setup";
import { createTenant, login, userInTenant } from "../harness/fixtures";
import { startProcess } from "../harness/process";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../app/services/webhooks/schedule";

const EVENTS = [
  "process.instance.started",
  "process.instance.completed",
  "task.created",
  "task.assigned",
  "task.completed",
];

useWebhookScenario("deliver");

const EVENTS_IN_ORDER = [
  "process.instance.started",
  "task.created",
  "task.assigned",
  "task.completed",
  "process.instance.completed",
];
const dispatch = () => s.platform.webhooks.dispatcher.runOnce();
async function hook(events = EVENTS, path = "/hook") {
  const res = await s.req("POST", "/api/a/webhooks", { token: admin, json: { url: `${rx.url}${path}`, events } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; secret: string };
}
const deliveries = async (id: string, q = "") =>
  (await (await s.req("GET", `/api/a/webhooks/${id}/deliveries${q}`, { token: admin })).json()) as {
    content: { id: string; status: string; attempts: number; eventType: string }[];
    totalElements: number;
  };

describe("webhook delivery", () => {
  test("signs each event per Standard Webhooks and carries the resource as the REST API shows it", async () => {
    const h = await hook();
    const started = await startProcess(s, admin, { definitionKey: "approval" });
    const taskId = started.activeTasks[0].id;
    expect((await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: admin })).status).toBe(200);
    const done = await s.req("POST", `/api/a/tasks/${taskId}/complete`, {
      token: admin,
      json: { variables: { approved: true } },
    });
    expect(done.status).toBe(200);
    await dispatch();
    // Deliveries go out concurrently: the receiver sees them in any order.
    const events = rx.received
      .map((r) => rx.verify(h.secret, r))
      .sort((a, b) => EVENTS_IN_ORDER.indexOf(a.type) - EVENTS_IN_ORDER.indexOf(b.type));
    expect(events.map((e) => e.type)).toEqual(EVENTS_IN_ORDER);
    for (const e of events) expect(e.tenant).toBe("deliver");
    expect(events[0].data).toMatchObject({ id: started.id, definitionKey: "approval" });
    expect(events[1].data).toMatchObject({ id: taskId, name: "Review request", instanceId: started.id });
    expect(events[2].data.assignee).toBeTruthy();
    // The webhook-id is the event id: receivers dedupe retries on it.
    expect(rx.received[0].headers["webhook-id"]).toBe(events[0].id);
    // A wrong secret fails verification: the test above could fail.
    expect(() => rx.verify(`whsec_${Buffer.from("x".repeat(24)).toString("base64")}`, rx.received[0])).toThrow();
    const page = await deliveries(h.id);
    expect(page.totalElements).toBe(5);
    expect(page.content[0].eventType).toBe("process.instance.completed");
    expect(page.content.every((d) => d.status === "SUCCEEDED")).toBe(true);
  });

  test("sends only the subscribed types, and nothing to another tenant's endpoint", async () => {
    await hook(["process.instance.completed"]);
    const b = await createTenant(s, "deliver-b");
    const bAdmin = (await userInTenant(s, b, "ADMIN")).token;
    await s.req("POST", "/api/a/webhooks", { token: bAdmin, json: { url: `${rx.url}/b`, events: EVENTS } });
    await startProcess(s, admin, { definitionKey: "approval" });
    await dispatch();
    expect(rx.received).toEqual([]);
  });

  test("a rolled-back command leaves nothing in the outbox and sends nothing", async () => {
    await hook();
    const kernel = s.platform.kernel;
    const remove = kernel.writeHooks.add(() => {
      throw new Error("simulated failure after the outbox write");
    });
    const res = await s.req("POST", "/api/a/instances", { token: admin, json: { definitionKey: "approval" } });
    remove();
    expect(res.status).toBe(500);
    expect(s.platform.webhooks.outbox.size()).toBe(0);
    await dispatch();
    expect(rx.received).toEqual([]);
    await startProcess(s, admin, { definitionKey: "approval" });
    expect(s.platform.webhooks.outbox.size()).toBe(2);
  });

  test("a crash between fan-out and acknowledgement, or during an attempt, sends each event once", async () => {
    const h = await hook(["process.instance.started"]);
    await startProcess(s, admin, { definitionKey: "approval" });
    const d = s.platform.webhooks.dispatcher;
    // Fan-out commits the deliveries; the crash loses the acknowledgement: the next pass fans out again (a no-op).
    const outbox = s.platform.webhooks.outbox;
    const ack = outbox.ack;
    outbox.ack = () => {
      throw new Error("kill -9");
    };
    await expect(d.fanOut()).rejects.toThrow("kill -9");
    outbox.ack = ack;
    expect(await d.fanOut()).toBe(1);
    expect((await deliveries(h.id)).totalElements).toBe(1);
    // A delivery claimed by a pass that died before recording is sent again once its lease ran out.
    s.platform.platformSqlite.exec(`UPDATE webhook_deliveries SET next_attempt_at = ${s.clock.now() + 60_000}`);
    await dispatch();
    expect(rx.received.length).toBe(0);
    s.clock.advance(61_000);
    await dispatch();
    await dispatch();
    expect(rx.received.length).toBe(1);
  });

  test("retries with backoff on the injected clock, records code, latency and 1 KB, then gives up", async () => {
    const h = await hook(["process.instance.started"]);
    rx.status(503, "x".repeat(3000));
    await startProcess(s, admin, { definitionKey: "approval" });
    await dispatch();
    expect(rx.received.length).toBe(1);
    for (let i = 0; i < RETRY_DELAYS_MS.length; i++) {
      s.clock.advance(RETRY_DELAYS_MS[i] * 0.85);
      await dispatch();
      expect(rx.received.length).toBe(i + 1);
      s.clock.advance(RETRY_DELAYS_MS[i] * 0.3);
      await dispatch();
      expect(rx.received.length).toBe(i + 2);
    }
    await refreshAdmin();
    const [one] = (await deliveries(h.id)).content;
    expect(one).toMatchObject({ status: "FAILED", attempts: MAX_ATTEMPTS });
    const detail = (await (
      await s.req("GET", `/api/a/webhooks/${h.id}/deliveries/${one.id}`, { token: admin })
    ).json()) as { attemptLog: { statusCode: number; latencyMs: number; responseBody: string }[] };
    expect(detail.attemptLog.length).toBe(MAX_ATTEMPTS);
    expect(detail.attemptLog[0].statusCode).toBe(503);
    expect(detail.attemptLog[0].responseBody.length).toBe(1024);
    expect((await deliveries(h.id, "?status=FAILED")).totalElements).toBe(1);
    expect((await deliveries(h.id, "?status=SUCCEEDED")).totalElements).toBe(0);
    // Redeliver: due now with a fresh schedule and the same event id (the endpoint, disabled after 24 h, enabled again).
    rx.status(204);
    await s.req("PATCH", `/api/a/webhooks/${h.id}`, { token: admin, json: { enabled: true } });
    const again = await s.req("POST", `/api/a/webhooks/${h.id}/deliveries/${one.id}/redeliver`, { token: admin });
    expect(again.status).toBe(202);
    await dispatch();
    expect((await deliveries(h.id)).content[0].status).toBe("SUCCEEDED");
    expect(rx.received.at(-1)?.headers["webhook-id"]).toBe(rx.received[0].headers["webhook-id"]);
  });

  test("disables an endpoint failing for 24 h and tells the tenant's admins", async () => {
    const owner = await userInTenant(s, tenant, "ADMIN");
    const h = await hook(["process.instance.started"]);
    rx.status(500);
    await startProcess(s, admin, { definitionKey: "approval" });
    await dispatch();
    s.clock.advance(25 * 3_600_000);
    await refreshAdmin();
    await startProcess(s, admin, { definitionKey: "approval" });
    await dispatch();
    const got = (await (await s.req("GET", `/api/a/webhooks/${h.id}`, { token: admin })).json()) as {
      enabled: boolean;
      disabledReason: string;
    };
    expect(got.enabled).toBe(false);
    expect(got.disabledReason).toMatch(/24 hours/);
    const session = await login(s, owner.email, owner.password);
    const sel = await s.req("POST", "/api/auth/select-tenant", {
      token: session.accessToken,
      json: { tenantSlug: tenant.slug },
    });
    const ownerToken = ((await sel.json()) as { accessToken: string }).accessToken;
    const notes = (await (await s.req("GET", "/api/a/notifications", { token: ownerToken })).json()) as {
      content?: { type: string }[];
    };
    expect(JSON.stringify(notes)).toContain("WEBHOOK_DISABLED");
  });

  test("the test ping is signed and answered with its outcome; a redirect to another internal host is refused", async () => {
    const h = await hook(["task.created"]);
    const ping = await s.req("POST", `/api/a/webhooks/${h.id}/test`, { token: admin });
    expect(await ping.json()).toMatchObject({ status: "SUCCEEDED", eventType: "webhook.ping", lastStatusCode: 200 });
    expect(rx.verify(h.secret, rx.received[0]).type).toBe("webhook.ping");
    rx.answer((r) =>
      r.path === "/hook"
        ? new Response(null, { status: 307, headers: { location: `http://127.0.0.2:${rx.port}/x` } })
        : new Response("reached"),
    );
    const res = (await (await s.req("POST", `/api/a/webhooks/${h.id}/test`, { token: admin })).json()) as {
      id: string;
      status: string;
    };
    expect(res.status).toBe("PENDING");
    expect(rx.received.filter((r) => r.path === "/x")).toEqual([]);
    const detail = (await (
      await s.req("GET", `/api/a/webhooks/${h.id}/deliveries/${res.id}`, { token: admin })
    ).json()) as { attemptLog: { error: string }[] };
    expect(detail.attemptLog[0].error).toMatch(/127\.0\.0\.2|loopback|refus/i);
  });
});
