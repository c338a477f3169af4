import type { Kernel } from "./kernel";
import { type WebhookEventType, webhookEventsOf } from "./webhook-events";

export interface OutboxEvent {
  seq: number;
  eventId: string;
  tenantId: string;
  type: WebhookEventType;
  data: string;
  createdAt: number;
}

/** Whether some endpoint of the tenant subscribes to the type (the webhook service's cache answers). */
export type OutboxFilter = (tenantId: string, type: WebhookEventType) => boolean;

/**
 * The webhook outbox of an engine database: a write hook appends the events of each runtime write to
 * `webhook_outbox` inside that write's transaction (only the types some endpoint subscribes to, so an engine without
 * webhooks writes nothing more); the dispatcher reads them in order and acknowledges them once fanned out.
 */
export function createWebhookOutbox(kernel: Kernel) {
  const { db } = kernel;
  let wants: OutboxFilter = () => false;
  const q = {
    ins: db.query("INSERT INTO webhook_outbox (event_id, tenant_id, type, data, created_at) VALUES (?,?,?,?,?)"),
    peek: db.query<
      { seq: number; event_id: string; tenant_id: string; type: WebhookEventType; data: string; created_at: number },
      [number]
    >("SELECT * FROM webhook_outbox ORDER BY seq LIMIT ?"),
    ack: db.query("DELETE FROM webhook_outbox WHERE seq <= ?"),
    count: db.query<{ n: number }, []>("SELECT count(*) AS n FROM webhook_outbox"),
  };
  const remove = kernel.writeHooks.add((change) => {
    for (const e of webhookEventsOf(change)) {
      if (!wants(e.tenantId, e.type)) continue;
      q.ins.run(kernel.newId(), e.tenantId, e.type, JSON.stringify(e.data), kernel.clock());
    }
  });
  return {
    setFilter(filter: OutboxFilter) {
      wants = filter;
    },
    /** The oldest events not yet fanned out. */
    peek(limit: number): OutboxEvent[] {
      return q.peek.all(limit).map((r) => ({
        seq: r.seq,
        eventId: r.event_id,
        tenantId: r.tenant_id,
        type: r.type,
        data: r.data,
        createdAt: r.created_at,
      }));
    },
    /** Drops every event up to `seq` (they are in the deliveries now), once the checkpointer does not hold the writes. */
    async ack(seq: number) {
      await kernel.writable();
      q.ack.run(seq);
    },
    size: () => q.count.get()?.n ?? 0,
    close: remove,
  };
}
export type WebhookOutbox = ReturnType<typeof createWebhookOutbox>;
