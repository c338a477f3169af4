import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { tenants, webhookDeliveries, webhooks } from "../../../db/platform/schema";
import type { WebhookOutbox } from "../../runtime/kernel/webhook-outbox";
import { type AttemptDeps, attemptDeliveries, type DeliveryRow, type WebhookRow } from "./attempt";
import { envelope } from "./envelope";
import { prepared } from "../prepared";

export interface DispatcherDeps extends AttemptDeps {
  outbox: Pick<WebhookOutbox, "peek" | "ack">;
  log(message: string): void;
  /** Deliveries in flight at once (default 128). */
  concurrency?: number;
}

const FANOUT_BATCH = 500;
/** A claimed delivery is not claimed again before this (longer than an attempt's 10 s); a crash resends it after. */
const LEASE_MS = 60_000;

/**
 * The webhook worker: moves outbox events (engine database) into one delivery per subscribed endpoint (platform
 * database; the (endpoint, event) key makes a repeated fan-out after a crash a no-op, so the outbox is acknowledged
 * only after the deliveries commit), then sends the due deliveries, at least once each, with the retry schedule.
 */
export function createWebhookDispatcher(deps: DispatcherDeps) {
  const db = deps.platformDb;
  const slugs = new Map<string, string>();
  const slugOf = (tenantId: string) => {
    let s = slugs.get(tenantId);
    if (s === undefined) {
      s = db.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId)).get()?.slug ?? tenantId;
      slugs.set(tenantId, s);
    }
    return s;
  };

  async function fanOut(): Promise<number> {
    const events = deps.outbox.peek(FANOUT_BATCH);
    if (!events.length) return 0;
    const tenantIds = [...new Set(events.map((e) => e.tenantId))];
    const hooks = db
      .select()
      .from(webhooks)
      .where(and(inArray(webhooks.tenantId, tenantIds), eq(webhooks.enabled, true)))
      .all();
    const now = deps.now();
    const subscribed = hooks.map((h) => ({ h, types: new Set(JSON.parse(h.events) as string[]) }));
    const insert = prepared(db, "webhookDeliveryInsert", () =>
      db
        .insert(webhookDeliveries)
        .values({
          id: sql.placeholder("id"),
          tenantId: sql.placeholder("tenantId"),
          webhookId: sql.placeholder("webhookId"),
          eventId: sql.placeholder("eventId"),
          eventType: sql.placeholder("eventType"),
          payload: sql.placeholder("payload"),
          status: "PENDING",
          attempts: 0,
          nextAttemptAt: sql.placeholder("nextAttemptAt"),
          lastStatusCode: null,
          createdAt: sql.placeholder("createdAt"),
        })
        .onConflictDoNothing()
        .prepare(),
    );
    db.transaction(() => {
      for (const e of events) {
        let payload: string | undefined;
        for (const { h, types } of subscribed) {
          if (h.tenantId !== e.tenantId || !types.has(e.type)) continue;
          payload ??= envelope({
            eventId: e.eventId,
            type: e.type,
            at: e.createdAt,
            tenantSlug: slugOf(e.tenantId),
            data: JSON.parse(e.data),
          });
          insert.run({
            id: crypto.randomUUID(),
            tenantId: e.tenantId,
            webhookId: h.id,
            eventId: e.eventId,
            eventType: e.type,
            payload,
            nextAttemptAt: now,
            createdAt: e.createdAt,
          });
        }
      }
    });
    await deps.outbox.ack(events[events.length - 1].seq);
    return events.length;
  }

  function claimDue(limit: number): Array<{ d: DeliveryRow; h: WebhookRow }> {
    const now = deps.now();
    return db.transaction((tx) => {
      const rows = tx
        .select({ d: webhookDeliveries, h: webhooks })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(
          and(
            eq(webhookDeliveries.status, "PENDING"),
            lte(webhookDeliveries.nextAttemptAt, now),
            eq(webhooks.enabled, true),
          ),
        )
        .orderBy(webhookDeliveries.nextAttemptAt)
        .limit(limit)
        .all();
      if (rows.length)
        tx.update(webhookDeliveries)
          .set({ nextAttemptAt: now + LEASE_MS })
          .where(
            inArray(
              webhookDeliveries.id,
              rows.map((r) => r.d.id),
            ),
          )
          .run();
      return rows;
    });
  }

  async function deliverDue(): Promise<number> {
    const limit = deps.concurrency ?? 128;
    const batch = claimDue(limit);
    await attemptDeliveries(deps, batch);
    return batch.length;
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<unknown> | null = null;
  const api = {
    fanOut,
    deliverDue,
    /** Fans out and delivers until nothing is due now; returns how many events and attempts it handled. */
    async runOnce(): Promise<number> {
      let total = 0;
      for (;;) {
        const n = (await fanOut()) + (await deliverDue());
        if (!n) return total;
        total += n;
      }
    },
    start(opts: { intervalMs?: number } = {}) {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = api
          .runOnce()
          .catch((e) => deps.log(`[webhooks] dispatcher pass failed: ${e instanceof Error ? e.message : e}`))
          .finally(() => {
            running = null;
          });
      }, opts.intervalMs ?? 200);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (running) await running;
    },
  };
  return api;
}
export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
