import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "../../../db/platform/schema";
import { prepared } from "../prepared";
import { type AttemptDeps, attemptDeliveries, type DeliveryRow, type WebhookRow } from "./attempt";

export interface EndpointQueuesDeps extends AttemptDeps {
  log(message: string): void;
  /** Sends in flight at once, all endpoints (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Sends in flight at once to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Called when an endpoint's queue ran low, so that the dispatcher claims more soon. */
  wantMore(): void;
}

/** A claimed delivery is not claimed again before this (longer than an attempt's timeout); a crash resends it after. */
const LEASE_MS = 60_000;
/** Claimed deliveries kept waiting per endpoint, in sends: a refill when half are gone, one claim per many sends. */
const QUEUED_PER_SLOT = 8;

interface Endpoint {
  hook: WebhookRow;
  waiting: Array<{ d: DeliveryRow; leasedUntil: number }>;
  inFlight: number;
}

/**
 * The deliveries claimed from the table, queued per endpoint in memory, and their sends: each endpoint sends at most
 * `perEndpoint` at once, from its own queue, so one endpoint that never answers holds its own slots and nothing else.
 * Each attempt is recorded (its own transaction) when it ends, and its endpoint's next delivery starts at once, with
 * no query. Claims lease the rows; waiting rows have their lease renewed, and on stop they are handed back.
 */
export function createEndpointQueues(deps: EndpointQueuesDeps) {
  const db = deps.platformDb;
  const endpoints = new Map<string, Endpoint>();
  const sends = new Set<Promise<unknown>>();
  const lease = Math.max(LEASE_MS, 2 * (deps.timeoutMs ?? 10_000));
  const cap = deps.perEndpoint * QUEUED_PER_SLOT;
  const held = (e: Endpoint) => e.inFlight + e.waiting.length;
  let turn = 0;

  /**
   * The endpoints that may have deliveries due, and from when: marked when events fan out to them and when an attempt
   * schedules a retry. A claim reads only these, so the cost of a claim follows the work there is, not the number of
   * endpoints (a claim after every send read every enabled endpoint: at 50 tenants it was most of the service's CPU).
   * A sweep reads every enabled endpoint: at start, in tests, and now and then, for leases that ran out after a crash.
   */
  const maybeDue = new Map<string, number>();
  function markDue(hook: Pick<WebhookRow, "id">, at: number): void {
    const m = maybeDue.get(hook.id);
    if (m === undefined || at < m) maybeDue.set(hook.id, at);
  }
  /**
   * The marked endpoints whose time came, read afresh: a mark holds no row, so an endpoint disabled, changed (URL,
   * secret) or deleted since it was marked is sent as it is now, or not at all (its mark is dropped).
   */
  function markedEndpoints(now: number): WebhookRow[] {
    const ids = [...maybeDue].filter(([, at]) => at <= now).map(([id]) => id);
    if (!ids.length) return [];
    const rows = db
      .select()
      .from(webhooks)
      .where(and(inArray(webhooks.id, ids), eq(webhooks.enabled, true)))
      .all();
    const live = new Set(rows.map((r) => r.id));
    for (const id of ids) if (!live.has(id)) maybeDue.delete(id);
    return rows;
  }

  /** One endpoint's due deliveries, oldest first (the index on endpoint, status and due time), prepared once. */
  const dueOf = (webhookId: string, now: number, limit: number): DeliveryRow[] =>
    prepared(db, "webhookDueOfEndpoint", () =>
      db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.webhookId, sql.placeholder("webhookId")),
            eq(webhookDeliveries.status, "PENDING"),
            lte(webhookDeliveries.nextAttemptAt, sql.placeholder("now")),
          ),
        )
        .orderBy(webhookDeliveries.nextAttemptAt)
        .limit(sql.placeholder("limit"))
        .prepare(),
    ).all({ webhookId, now, limit });

  /**
   * Claims due deliveries, oldest first, for the endpoints that may have some (every enabled endpoint when `sweep`)
   * and whose queue has room, one endpoint at a time: an endpoint holding its share is not read at all, so one
   * endpoint's backlog never fills a claim nor makes it walk that backlog. Returns how many it claimed.
   */
  function claim(opts: { sweep?: boolean } = {}): number {
    const now = deps.now();
    const all = opts.sweep ? db.select().from(webhooks).where(eq(webhooks.enabled, true)).all() : markedEndpoints(now);
    if (!all.length) return 0;
    // Each claim starts one endpoint further on, so that under the bound of one claim no endpoint always comes last.
    turn = (turn + 1) % all.length;
    const hooks = [...all.slice(turn), ...all.slice(0, turn)];
    const taken: { d: DeliveryRow; h: WebhookRow }[] = [];
    for (const h of hooks) {
      if (taken.length >= deps.concurrency * 4) {
        if (opts.sweep) markDue(h, now); // not read this time: the next claim does
        continue;
      }
      const e = endpoints.get(h.id);
      const room = cap - (e ? held(e) : 0);
      if (room <= 0) {
        markDue(h, now); // full: read again once its queue runs low
        continue;
      }
      const rows = dueOf(h.id, now, room);
      for (const d of rows) taken.push({ d, h });
      // Fewer than asked: nothing more is due now (a retry scheduled later marks the endpoint again).
      if (rows.length < room) maybeDue.delete(h.id);
      else markDue(h, now);
    }
    if (!taken.length) return 0;
    setLease(
      taken.map((r) => r.d.id),
      now + lease,
    );
    for (const { d, h } of taken) {
      let e = endpoints.get(h.id);
      if (!e) endpoints.set(h.id, (e = { hook: h, waiting: [], inFlight: 0 }));
      e.hook = h;
      e.waiting.push({ d, leasedUntil: now + lease });
    }
    return taken.length;
  }

  function setLease(ids: string[], until: number) {
    for (let i = 0; i < ids.length; i += 500)
      db.update(webhookDeliveries)
        .set({ nextAttemptAt: until })
        .where(and(inArray(webhookDeliveries.id, ids.slice(i, i + 500)), eq(webhookDeliveries.status, "PENDING")))
        .run();
  }

  /** Starts sends from the endpoints' queues while slots are free; returns how many it started. */
  function drain(): number {
    let started = 0;
    for (const [id, e] of endpoints) {
      while (e.waiting.length && e.inFlight < deps.perEndpoint && sends.size < deps.concurrency) {
        const { d } = e.waiting.shift() as Endpoint["waiting"][number];
        e.inFlight++;
        started++;
        const send: Promise<unknown> = attemptDeliveries(deps, [{ d, h: e.hook }])
          .then(([recorded]) => {
            if (recorded?.status === "PENDING") markDue(e.hook, recorded.nextAttemptAt);
          })
          .catch((err) => deps.log(`[webhooks] delivery ${d.id} failed: ${err instanceof Error ? err.message : err}`))
          .finally(() => {
            e.inFlight--;
            sends.delete(send);
            if (!held(e)) endpoints.delete(id);
            drain();
            if (held(e) <= cap / 2) deps.wantMore();
          });
        sends.add(send);
      }
    }
    return started;
  }

  /** Renews the lease of claimed rows still waiting (a slow endpoint's queue), before it runs out. */
  function renewLeases(): void {
    const now = deps.now();
    const due = [...endpoints.values()].flatMap((e) => e.waiting.filter((w) => w.leasedUntil - now < lease / 2));
    if (!due.length) return;
    setLease(
      due.map((w) => w.d.id),
      now + lease,
    );
    for (const w of due) w.leasedUntil = now + lease;
  }

  return {
    claim,
    markDue,
    drain,
    renewLeases,
    /** Sends in flight now. */
    inFlight: () => sends.size,
    /** Claimed deliveries not sent yet. */
    waiting: () => [...endpoints.values()].reduce((n, e) => n + e.waiting.length, 0),
    /** Resolves when one of the sends in flight has ended (at once when none is). */
    oneSettled: () => (sends.size ? Promise.race(sends) : Promise.resolve()),
    /** Hands the waiting deliveries back (due now) and waits for the sends in flight. */
    async stop() {
      const ids = [...endpoints.values()].flatMap((e) => e.waiting.map((w) => w.d.id));
      for (const e of endpoints.values()) e.waiting.length = 0;
      if (ids.length) setLease(ids, deps.now());
      await Promise.allSettled([...sends]);
    },
  };
}
export type EndpointQueues = ReturnType<typeof createEndpointQueues>;
