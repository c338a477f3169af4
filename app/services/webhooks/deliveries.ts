import { and, asc, count, desc, eq, type SQL } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries } from "../../../db/platform/schema";
import { pageOf, pageParams } from "../../../db/pagination";
import { BadRequestError, NotFoundError } from "../errors";
import type { DeliveryRow } from "./attempt";
import { type WebhooksCtx, webhookOf } from "./manage";

export const DELIVERY_STATUSES = ["PENDING", "SUCCEEDED", "FAILED"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function deliveryView(d: DeliveryRow) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    nextAttemptAt: d.status === "PENDING" ? new Date(d.nextAttemptAt).toISOString() : null,
    createdAt: new Date(d.createdAt).toISOString(),
  };
}

/** GET /a/webhooks/{id}/deliveries: newest first, optionally one status. */
export function listDeliveries({
  ctx,
  input,
}: {
  ctx: WebhooksCtx;
  input: { id: string; status?: string; page?: number; size?: number };
}) {
  const hook = webhookOf(ctx, input.id);
  if (input.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(input.status))
    throw new BadRequestError(`status must be one of ${DELIVERY_STATUSES.join(", ")}`, [
      { field: "status", message: `must be one of ${DELIVERY_STATUSES.join(", ")}` },
    ]);
  const { page, size, offset } = pageParams(input.page, input.size, 20, 100);
  const conds: SQL[] = [eq(webhookDeliveries.webhookId, hook.id)];
  if (input.status) conds.push(eq(webhookDeliveries.status, input.status));
  const where = and(...conds);
  const db = ctx.platformDb;
  const rows = db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventId))
    .limit(size)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(webhookDeliveries).where(where).get()?.n ?? 0;
  return pageOf(rows.map(deliveryView), total, page, size);
}

export function deliveryOf(ctx: WebhooksCtx, webhookId: string, deliveryId: string): DeliveryRow {
  const hook = webhookOf(ctx, webhookId);
  const d = ctx.platformDb
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, hook.id)))
    .get();
  if (!d) throw new NotFoundError(`Delivery ${deliveryId} not found`);
  return d;
}

/** GET /a/webhooks/{id}/deliveries/{deliveryId}: the delivery, its payload and every attempt. */
export function getDelivery({ ctx, input }: { ctx: WebhooksCtx; input: { id: string; deliveryId: string } }) {
  const d = deliveryOf(ctx, input.id, input.deliveryId);
  const attempts = ctx.platformDb
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, d.id))
    .orderBy(asc(webhookAttempts.attemptedAt))
    .all()
    .map((a) => ({
      attemptedAt: new Date(a.attemptedAt).toISOString(),
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      responseBody: a.responseBody,
      error: a.error,
    }));
  return { ...deliveryView(d), payload: d.payload, attemptLog: attempts };
}

/** POST …/deliveries/{deliveryId}/redeliver: due now with a fresh schedule, same event id (receivers dedupe on it). */
export function redeliver({ ctx, input }: { ctx: WebhooksCtx; input: { id: string; deliveryId: string } }) {
  const d = deliveryOf(ctx, input.id, input.deliveryId);
  const changes = { status: "PENDING", attempts: 0, nextAttemptAt: ctx.clock.now() };
  ctx.platformDb.update(webhookDeliveries).set(changes).where(eq(webhookDeliveries.id, d.id)).run();
  return deliveryView({ ...d, ...changes });
}
