import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/**
 * Webhook events written in the same transaction as the engine change that caused them (a rolled-back command leaves
 * none); the dispatcher fans each out to the subscribed endpoints' deliveries (platform database) and then deletes it.
 */
export const webhookOutbox = sqliteTable(
  "webhook_outbox",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    /** The event id subscribers see (`webhook-id`), the same for every endpoint and every retry. */
    eventId: text("event_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    type: text("type").notNull(),
    /** JSON of the resource as the REST API shows it. */
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_outbox_event_idx").on(t.eventId)],
);
