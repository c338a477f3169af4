import { tenants, webhookDeliveries } from "../../../db/platform/schema";
import { eq } from "drizzle-orm";
import { attemptDelivery, type DeliveryRow } from "./attempt";
import { deliveryView } from "./deliveries";
import { envelope } from "./envelope";
import { type WebhooksCtx, webhookOf } from "./manage";

/**
 * POST /a/webhooks/{id}/test: a `webhook.ping` event sent now (even to a disabled endpoint) and answered with the
 * attempt's outcome; it is recorded like any delivery and retried the same way if it failed.
 */
export async function pingWebhook({ ctx, input }: { ctx: WebhooksCtx; input: { id: string } }) {
  const hook = webhookOf(ctx, input.id);
  const now = ctx.clock.now();
  const eventId = Bun.randomUUIDv7();
  const slug =
    ctx.platformDb.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, hook.tenantId)).get()?.slug ?? "";
  const d: DeliveryRow = {
    id: crypto.randomUUID(),
    tenantId: hook.tenantId,
    webhookId: hook.id,
    eventId,
    eventType: "webhook.ping",
    payload: envelope({ eventId, type: "webhook.ping", at: now, tenantSlug: slug, data: { webhookId: hook.id } }),
    status: "PENDING",
    attempts: 0,
    nextAttemptAt: now + 60_000,
    lastStatusCode: null,
    createdAt: now,
  };
  ctx.platformDb.insert(webhookDeliveries).values(d).run();
  const done = await attemptDelivery(
    { platformDb: ctx.platformDb, webhooks: ctx.webhooks, now: () => ctx.clock.now() },
    d,
    hook,
  );
  return deliveryView(done);
}
