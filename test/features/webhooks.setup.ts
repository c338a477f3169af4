import { afterAll, beforeAll, beforeEach } from "bun:test";
import { createTenant, saTenantToken } from "../harness/fixtures";
import { bpmnFixture, deployBpmn } from "../harness/process";
import { startTestServer, type TestServer } from "../harness/server";
import { startWebhookReceiver, type WebhookReceiver } from "../harness/webhook-receiver";

export let s: TestServer;
export let rx: WebhookReceiver;
export let admin: string;
export let tenant: { id: string; slug: string };

/** A fresh token of the tenant's SA (tests move the manual clock by hours). */
export async function refreshAdmin(): Promise<void> {
  admin = await saTenantToken(s, tenant);
}

/**
 * Registers the scenario of the webhook suites: a local receiver (the only internal address let through, so every
 * other stays refused), a tenant `slug` with the approval process, and before each test no endpoint, a receiver
 * answering 200 and the clock back at now.
 */
export function useWebhookScenario(slug: string): void {
  beforeAll(async () => {
    rx = startWebhookReceiver();
    s = await startTestServer({ env: { WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1" } });
    tenant = await createTenant(s, slug);
    await refreshAdmin();
    await deployBpmn(s, admin, bpmnFixture("approval.bpmn"));
  });
  afterAll(async () => {
    rx.stop();
    await s.close();
  });
  beforeEach(async () => {
    s.clock.advance(Date.now() - s.clock.now());
    await refreshAdmin();
    rx.received.length = 0;
    rx.status(200, "ok");
    s.platform.platformSqlite.exec("DELETE FROM webhooks");
    s.platform.webhooks.port.subscriptions.refresh();
    await s.platform.webhooks.dispatcher.runOnce();
  });
}
