import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saTenantToken } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";
import { startWebhookReceiver, type WebhookReceiver } from "../harness/webhook-receiver";

// Deliveries claimed into an endpoint's queue but not sent yet are handed back when the dispatcher stops: the next
// dispatcher sends each of them once, and nothing that was sent is sent again.
let s: TestServer;
let rx: WebhookReceiver;
let token: string;

beforeAll(async () => {
  rx = startWebhookReceiver();
  s = await startTestServer({ env: { WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1", WEBHOOK_ENDPOINT_CONCURRENCY: "2" } });
  const t = await createTenant(s, "hook-queues");
  token = await saTenantToken(s, t);
  await deployBpmn(s, token, bpmnFixture("approval.bpmn"));
});
afterAll(async () => {
  await s.close();
  rx.stop();
});

async function until(check: () => boolean) {
  for (let i = 0; i < 2500 && !check(); i++) await Bun.sleep(4);
  expect(check()).toBe(true);
}

describe("the endpoint queues of the webhook dispatcher", () => {
  test("stopping hands back what waits unsent; after a restart each delivery is sent once", async () => {
    let open!: () => void;
    const held = new Promise<void>((r) => (open = r));
    rx.answer(async () => {
      await held;
      return new Response(null, { status: 204 });
    });
    const created = await s.req("POST", "/api/a/webhooks", {
      token,
      json: { url: `${rx.url}/hook`, events: ["process.instance.started"] },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (let i = 0; i < 5; i++) await startProcess(s, token, { definitionKey: "approval" });

    const dispatcher = s.platform.webhooks.dispatcher;
    dispatcher.start({ intervalMs: 5 });
    await until(() => rx.received.length === 2); // two in flight, three claimed and waiting
    const stopped = dispatcher.stop();
    open();
    await stopped;
    expect(rx.received.length).toBe(2);

    // The three handed back are due now: the next pass sends them, and only them.
    await dispatcher.runOnce();
    expect(rx.received.length).toBe(5);
    const ids = rx.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(5);
    const page = (await (await s.req("GET", `/api/a/webhooks/${id}/deliveries`, { token })).json()) as {
      content: { status: string; attempts: number }[];
    };
    expect(page.content.map((d) => [d.status, d.attempts])).toEqual(Array(5).fill(["SUCCEEDED", 1]));
  });
});

describe("a claim reads the endpoints that have work", () => {
  // A claim after every send read every enabled endpoint: with 50 tenants it was most of the service's CPU
  // (bench:soak). Now fan-outs and retries mark their endpoint, a claim reads the marked ones, and a sweep (at start,
  // every few seconds, first pass of runOnce) reads them all for what no mark announces: rows a crash left leased.
  test("a row no event announced waits for the sweep; a failed attempt marks its endpoint at its retry time", async () => {
    rx.received.length = 0;
    rx.status(204);
    // This test's endpoint alone.
    const others = (await (await s.req("GET", "/api/a/webhooks", { token })).json()) as { id: string }[];
    for (const o of others) expect((await s.req("DELETE", `/api/a/webhooks/${o.id}`, { token })).status).toBe(204);
    const created = await s.req("POST", "/api/a/webhooks", {
      token,
      json: { url: `${rx.url}/marks`, events: ["process.instance.started"] },
    });
    const hook = (await created.json()) as { id: string };
    const dispatcher = s.platform.webhooks.dispatcher;
    await dispatcher.runOnce();
    rx.received.length = 0;
    const now = s.clock.now();
    const insert = s.platform.platformSqlite.prepare(
      `INSERT INTO webhook_deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, attempts,
           next_attempt_at, last_status_code, created_at)
         SELECT 'left-by-crash', tenant_id, id, 'evt_left', 'process.instance.started', '{}', 'PENDING', 0, ?, NULL, ?
         FROM webhooks WHERE id = ?`,
    );
    insert.run(now, now, hook.id);
    insert.finalize();
    expect(dispatcher.deliverDue(0)).toBe(0);
    expect(dispatcher.deliverDue(0, true)).toBe(2); // claimed, then started
    await until(() => rx.received.length === 1);
    expect(rx.received[0].headers["webhook-id"]).toBe("evt_left");

    rx.status(500);
    await startProcess(s, token, { definitionKey: "approval" });
    const fanned = await dispatcher.fanOut();
    expect(fanned).toBe(1);
    expect(dispatcher.deliverDue(fanned)).toBeGreaterThan(0);
    await until(() => rx.received.length === 2);
    await until(() => dispatcher.inFlight() === 0);
    const pending = s.platform.platformSqlite.prepare(
      "SELECT next_attempt_at AS at FROM webhook_deliveries WHERE webhook_id = ? AND status = 'PENDING'",
    );
    const retry = pending.get(hook.id) as { at: number };
    pending.finalize();
    expect(retry.at).toBeGreaterThan(s.clock.now());
    expect(dispatcher.deliverDue(0)).toBe(0); // not due yet: nothing read, nothing sent
    s.clock.advance(retry.at - s.clock.now());
    rx.status(204);
    expect(dispatcher.deliverDue(0)).toBe(2); // the mark at its retry time: claimed and sent without a sweep
    await until(() => rx.received.length === 3);
    await until(() => dispatcher.inFlight() === 0);
  });
  test("a mark holds no row: an endpoint disabled after its failed attempt gets no retry from it", async () => {
    const dispatcher = s.platform.webhooks.dispatcher;
    const others = (await (await s.req("GET", "/api/a/webhooks", { token })).json()) as { id: string }[];
    for (const o of others) expect((await s.req("DELETE", `/api/a/webhooks/${o.id}`, { token })).status).toBe(204);
    const created = await s.req("POST", "/api/a/webhooks", {
      token,
      json: { url: `${rx.url}/disabled`, events: ["process.instance.started"] },
    });
    const hook = (await created.json()) as { id: string };
    rx.received.length = 0;
    rx.status(500);
    await startProcess(s, token, { definitionKey: "approval" });
    const fanned = await dispatcher.fanOut();
    expect(dispatcher.deliverDue(fanned)).toBeGreaterThan(0);
    await until(() => rx.received.length === 1);
    await until(() => dispatcher.inFlight() === 0);
    const patched = await s.req("PATCH", `/api/a/webhooks/${hook.id}`, { token, json: { enabled: false } });
    expect(patched.status).toBe(200);
    s.clock.advance(24 * 3600_000);
    rx.status(204);
    expect(dispatcher.deliverDue(0)).toBe(0);
    expect(dispatcher.deliverDue(0, true)).toBe(0);
    expect(rx.received.length).toBe(1);
  });
});

describe("a claim reads each endpoint apart", () => {
  // An endpoint that never answers piles up due deliveries; a claim skips it once its queue is full and reads the
  // others through the index on endpoint, status and due time, never walking the pile to reach them (bench:
  // noisy-neighbour measures the stall this removed).
  test("one endpoint's due deliveries are read by the endpoint index, oldest first, with no sort and no scan", () => {
    // prepare + finalize: a statement left in Bun's query cache keeps the connection from its last checkpoint.
    const explain = s.platform.platformSqlite.prepare(
      `EXPLAIN QUERY PLAN SELECT * FROM webhook_deliveries
       WHERE webhook_id = ? AND status = 'PENDING' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT 64`,
    );
    const plan = (explain.all("w", 1) as { detail: string }[]).map((r) => r.detail);
    explain.finalize();
    expect(plan).toEqual([
      "SEARCH webhook_deliveries USING INDEX webhook_deliveries_endpoint_due_idx (webhook_id=? AND status=? AND next_attempt_at<?)",
    ]);
  });
});
