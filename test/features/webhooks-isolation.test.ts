import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saTenantToken } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";
import { startWebhookReceiver, type WebhookReceiver } from "../harness/webhook-receiver";

// Webhook endpoints cannot delay each other (issue 28, part 6). Receivers that hold their answer until the test lets
// them go stand for endpoints that never answer; nothing here measures time, only what has arrived and what is recorded.
let s: TestServer;
let hanging: WebhookReceiver;
let fast: WebhookReceiver;
let other: WebhookReceiver;
let release: () => void;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  hanging = startWebhookReceiver();
  fast = startWebhookReceiver();
  other = startWebhookReceiver();
  const held = new Promise<void>((r) => {
    release = r;
  });
  hanging.answer(async () => {
    await held;
    return new Response("late", { status: 200 });
  });
  s = await startTestServer({
    env: { WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1", WEBHOOK_ENDPOINT_CONCURRENCY: "2", WEBHOOK_TIMEOUT_MS: "60000" },
  });
  for (const slug of ["hook-a", "hook-b"]) {
    const t = await createTenant(s, slug);
    tokens[slug] = await saTenantToken(s, t);
    await deployBpmn(s, tokens[slug], bpmnFixture("approval.bpmn"));
  }
  s.platform.webhooks.dispatcher.start({ intervalMs: 5 });
});
afterAll(async () => {
  release();
  await s.close();
  for (const rx of [hanging, fast, other]) rx.stop();
});

async function hook(slug: string, rx: WebhookReceiver) {
  const res = await s.req("POST", "/api/a/webhooks", {
    token: tokens[slug],
    json: { url: `${rx.url}/hook`, events: ["process.instance.started"] },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
const deliveries = async (slug: string, id: string) =>
  (
    (await (await s.req("GET", `/api/a/webhooks/${id}/deliveries`, { token: tokens[slug] })).json()) as {
      content: { status: string; attempts: number }[];
    }
  ).content;
/** Waits (without a clock) until `check` holds; fails the test when it never does. */
async function until(check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 2500 && !(await check()); i++) await Bun.sleep(4);
  expect(await check()).toBe(true);
}

describe("webhook endpoints are independent", () => {
  test("an endpoint of tenant A that never answers does not delay tenant B's delivery", async () => {
    const a = await hook("hook-a", hanging);
    await hook("hook-b", other);
    for (let i = 0; i < 5; i++) await startProcess(s, tokens["hook-a"], { definitionKey: "approval" });
    // A's endpoint holds the two sends it is allowed at once; its other three deliveries wait for it alone.
    await until(() => hanging.received.length === 2);

    await startProcess(s, tokens["hook-b"], { definitionKey: "approval" });
    await until(() => other.received.length === 1);
    // B's event arrived while A's two sends were still unanswered and A's backlog still waiting.
    expect(hanging.received.length).toBe(2);
    const ofA = await deliveries("hook-a", a);
    expect(ofA.filter((d) => d.status === "PENDING").length).toBe(5);
    expect(ofA.every((d) => d.attempts === 0)).toBe(true);
  });

  test("an attempt's outcome is recorded when it ends, before the other attempts of its batch", async () => {
    const quick = await hook("hook-b", fast);
    const slow = await hook("hook-b", hanging);
    const heldBefore = hanging.received.length;
    await startProcess(s, tokens["hook-b"], { definitionKey: "approval" });
    await until(async () => (await deliveries("hook-b", quick)).some((d) => d.status === "SUCCEEDED"));
    // The slow endpoint's attempt of the same event is still in flight: not recorded, nothing waits for it.
    await until(() => hanging.received.length === heldBefore + 1);
    expect(await deliveries("hook-b", slow)).toEqual([expect.objectContaining({ status: "PENDING", attempts: 0 })]);
  });

  test("once the hanging endpoint answers, its waiting deliveries go out and every attempt is recorded", async () => {
    release();
    const listed = await s.req("GET", "/api/a/webhooks", { token: tokens["hook-a"] });
    const [a] = (await listed.json()) as { id: string }[];
    await until(async () => (await deliveries("hook-a", a.id)).every((d) => d.status === "SUCCEEDED"));
    expect(await deliveries("hook-a", a.id)).toHaveLength(5);
    expect(hanging.received.length).toBe(6); // A's five and the slow endpoint's one
  });
});
