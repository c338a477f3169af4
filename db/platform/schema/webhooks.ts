import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenants } from "./identity";

/** A tenant's webhook endpoint; the signing secret is kept encrypted (AES-GCM, key derived from the JWT secret). */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** JSON list of event types. */
    events: text("events").notNull(),
    description: text("description"),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    secretEnc: text("secret_enc").notNull(),
    /** The secret before the last rotation, sealed, still signing beside the new one until `previousSecretUntil`. */
    previousSecretEnc: text("previous_secret_enc"),
    /** Epoch ms: the end of the rotation's grace period. */
    previousSecretUntil: integer("previous_secret_until"),
    /** Epoch ms of the first failed attempt since the last success; 24 h of failures disables the endpoint. */
    failingSince: integer("failing_since"),
    disabledReason: text("disabled_reason"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("webhooks_tenant_idx").on(t.tenantId)],
);

/** One event for one endpoint: PENDING until a 2xx (SUCCEEDED) or until its attempts run out (FAILED). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The exact body sent (signed as is). */
    payload: text("payload").notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull(),
    /** Epoch ms; also the lease of an attempt in flight (a crash sends it again after the lease). */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastStatusCode: integer("last_status_code"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_uq").on(t.webhookId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_list_idx").on(t.webhookId, t.createdAt),
    // One endpoint's due deliveries, oldest first: a claim reads each endpoint apart, so one endpoint's backlog (a
    // receiver that never answers) is never walked to find another's.
    index("webhook_deliveries_endpoint_due_idx").on(t.webhookId, t.status, t.nextAttemptAt),
  ],
);

/** Every attempt: response code, latency and the first 1 KB of the body (or the transport error). */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: integer("attempted_at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    responseBody: text("response_body"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId)],
);
