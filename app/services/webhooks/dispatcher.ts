import { and, eq, inArray, lte, notInArray, sql } from "drizzle-orm";
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
  /** Deliveries in flight at once to one endpoint (default 4): a slow endpoint holds only its own slots. */
  perEndpoint?: number;
}

const FANOUT_BATCH = 500;
/** A claimed delivery is not claimed again before this (longer than an attempt's timeout); a crash resends it after. */
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

  const perEndpoint = deps.perEndpoint ?? 4;
  const concurrency = deps.concurrency ?? 128;
  // Sends in flight, per endpoint and in all: one endpoint never holds more than `perEndpoint` of them.
  const inFlight = new Map<string, number>();
  const sends = new Set<Promise<unknown>>();
  const lease = Math.max(LEASE_MS, 2 * (deps.timeoutMs ?? 10_000));

  /**
   * Claims (leases) due deliveries for the free slots: oldest first, at most `perEndpoint` in flight per endpoint.
   * Endpoints already full are left out of the query, so one endpoint's backlog cannot fill the claim.
   */
  function claimDue(): Array<{ d: DeliveryRow; h: WebhookRow }> {
    const now = deps.now();
    const claimed: Array<{ d: DeliveryRow; h: WebhookRow }> = [];
    const taken = new Map<string, number>();
    const busy = (id: string) => (inFlight.get(id) ?? 0) + (taken.get(id) ?? 0);
    return db.transaction((tx) => {
      for (let free = concurrency - sends.size; free > 0; free = concurrency - sends.size - claimed.length) {
        const full = [...new Set([...inFlight.keys(), ...taken.keys()])].filter((id) => busy(id) >= perEndpoint);
        const rows = tx
          .select({ d: webhookDeliveries, h: webhooks })
          .from(webhookDeliveries)
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(
            and(
              eq(webhookDeliveries.status, "PENDING"),
              lte(webhookDeliveries.nextAttemptAt, now),
              eq(webhooks.enabled, true),
              full.length ? notInArray(webhookDeliveries.webhookId, full) : undefined,
            ),
          )
          .orderBy(webhookDeliveries.nextAttemptAt)
          .limit(free)
          .all();
        const fresh = rows.filter((r) => {
          if (busy(r.h.id) >= perEndpoint) return false;
          taken.set(r.h.id, (taken.get(r.h.id) ?? 0) + 1);
          return true;
        });
        if (!fresh.length) break;
        tx.update(webhookDeliveries)
          .set({ nextAttemptAt: now + lease })
          .where(
            inArray(
              webhookDeliveries.id,
              fresh.map((r) => r.d.id),
            ),
          )
          .run();
        claimed.push(...fresh);
        if (rows.length < free) break;
      }
      return claimed;
    });
  }

  /**
   * Starts a send for each delivery claimable now and returns at once: each attempt is recorded when it ends (its own
   * transaction), its slot is freed and the next due delivery of its endpoint handed out, whatever the others do.
   */
  function deliverDue(): number {
    const batch = claimDue();
    for (const one of batch) {
      const id = one.h.id;
      inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
      const send: Promise<unknown> = attemptDeliveries(deps, [one])
        .catch((e) => deps.log(`[webhooks] delivery ${one.d.id} failed: ${e instanceof Error ? e.message : e}`))
        .finally(() => {
          const left = (inFlight.get(id) ?? 1) - 1;
          if (left) inFlight.set(id, left);
          else inFlight.delete(id);
          sends.delete(send);
          if (timer) kick();
        });
      sends.add(send);
    }
    return batch.length;
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  let pumping: Promise<unknown> | null = null;
  let again = false;
  /** Fans out and hands out due deliveries; never waits for a send. A call while one runs makes it run once more. */
  function kick(): void {
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      do {
        again = false;
        await fanOut();
        deliverDue();
      } while (again);
    })()
      .catch((e) => deps.log(`[webhooks] dispatcher pass failed: ${e instanceof Error ? e.message : e}`))
      .finally(() => {
        pumping = null;
      });
  }

  const api = {
    fanOut,
    deliverDue,
    /** Sends in flight now (for tests and benches). */
    inFlight: () => sends.size,
    /**
     * Fans out and delivers until nothing is due now and no send is in flight; returns how many events and attempts
     * it handled (tests use it instead of the timer).
     */
    async runOnce(): Promise<number> {
      let total = 0;
      for (;;) {
        const n = (await fanOut()) + deliverDue();
        total += n;
        if (n) continue;
        if (!sends.size) return total;
        await Promise.race(sends);
      }
    },
    start(opts: { intervalMs?: number } = {}) {
      if (timer) return;
      timer = setInterval(kick, opts.intervalMs ?? 200);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (pumping) await pumping;
      await Promise.allSettled([...sends]);
    },
  };
  return api;
}
export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
