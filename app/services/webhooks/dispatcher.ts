import { and, eq, inArray, sql } from "drizzle-orm";
import { tenants, webhookDeliveries, webhooks } from "../../../db/platform/schema";
import type { WebhookOutbox } from "../../runtime/kernel/webhook-outbox";
import type { AttemptDeps } from "./attempt";
import { createEndpointQueues } from "./endpoint-queues";
import { envelope } from "./envelope";
import { prepared } from "../prepared";

export interface DispatcherDeps extends AttemptDeps {
  outbox: Pick<WebhookOutbox, "peek" | "ack">;
  log(message: string): void;
  /** Deliveries in flight at once (default 128). */
  concurrency?: number;
  /** Deliveries in flight at once to one endpoint (default 8): a slow endpoint holds only its own slots. */
  perEndpoint?: number;
}

const FANOUT_BATCH = 500;

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
    const marked = new Set<(typeof subscribed)[number]["h"]>();
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
          marked.add(h);
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
    for (const h of marked) queues.markDue(h, now);
    await deps.outbox.ack(events[events.length - 1].seq);
    return events.length;
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  let pumping: Promise<unknown> | null = null;
  let again = false;
  let sweepAgain = false;
  const queues = createEndpointQueues({
    ...deps,
    concurrency: deps.concurrency ?? 128,
    perEndpoint: deps.perEndpoint ?? 8,
    wantMore: () => {
      wanted = true;
      if (timer) kick();
    },
  });
  // An endpoint's queue ran low since the last claim: claiming again is worth its query.
  let wanted = true;

  /**
   * Claims due deliveries into the endpoints' queues (when new events came, a queue ran low or nothing waits) and
   * starts what the free slots allow; never waits for a send.
   */
  function deliverDue(fannedOut = 1, sweep = false): number {
    let claimed = 0;
    if (sweep || fannedOut || wanted || !queues.waiting()) {
      wanted = false;
      claimed = queues.claim({ sweep });
    }
    return queues.drain() + claimed;
  }

  /** Fans out and hands out due deliveries. A call while one runs makes that one run once more. */
  function kick(sweep = false): void {
    if (pumping) {
      again = true;
      sweepAgain ||= sweep;
      return;
    }
    pumping = (async () => {
      let sweepNow = sweep;
      do {
        again = false;
        deliverDue(await fanOut(), sweepNow);
        sweepNow = sweepAgain;
        sweepAgain = false;
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
    /** Sends in flight now (tests and benches). */
    inFlight: () => queues.inFlight(),
    /**
     * Fans out and delivers until nothing is due now, claimed or in flight; returns how many events, claims and sends
     * it handled (tests use it instead of the timer).
     */
    async runOnce(): Promise<number> {
      let total = 0;
      for (let first = true; ; first = false) {
        const events = await fanOut();
        // The first pass reads every endpoint: tests move the clock, and retries come due without a mark's time.
        const n = events + deliverDue(events, first);
        total += n;
        if (n) continue;
        if (!queues.inFlight() && !queues.waiting()) return total;
        await queues.oneSettled();
      }
    },
    start(opts: { intervalMs?: number } = {}) {
      if (timer) return;
      let ticks = 0;
      const every = (ms: number) => ticks % Math.max(1, Math.round(ms / (opts.intervalMs ?? 200))) === 0;
      kick(true); // at start, every endpoint: deliveries left by a stop or a crash
      timer = setInterval(() => {
        ticks++;
        // About every 10 s: the lease of deliveries waiting behind a slow endpoint is renewed.
        if (every(10_000)) queues.renewLeases();
        // Each tick claims for the endpoints marked due (retries whose time came are found even while a slow
        // endpoint's queue is full); about every 5 s, every endpoint (leases that ran out after a crash).
        wanted = true;
        kick(every(5_000));
      }, opts.intervalMs ?? 200);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (pumping) await pumping;
      await queues.stop();
    },
  };
  return api;
}
export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
