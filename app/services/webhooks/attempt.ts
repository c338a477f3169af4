import { and, eq, sql } from "drizzle-orm";
import { memberships, webhookAttempts, webhookDeliveries, webhooks } from "../../../db/platform/schema";
import type { PlatformOrm } from "../../../tenants/tenant-directory";
import { safeFetch } from "../../outbound";
import { notify } from "../notifications/notify";
import { prepared } from "../prepared";
import { signedHeaders, signersOf } from "./envelope";
import type { WebhooksPort } from "./port";
import { DISABLE_AFTER_MS, nextAttemptAt } from "./schedule";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookRow = typeof webhooks.$inferSelect;
export interface AttemptDeps {
  platformDb: PlatformOrm;
  webhooks: WebhooksPort;
  now: () => number;
  random?: () => number;
  /** One attempt's whole call, connection to last byte kept (WEBHOOK_TIMEOUT_MS, default 10 s). */
  timeoutMs?: number;
}

const TIMEOUT_MS = 10_000;
const BODY_KEPT = 1024;

const utf8 = new TextDecoder();

/** The first `max` bytes of the body as text; the rest is not read. */
export async function head(res: Response, max: number): Promise<string> {
  // Most receivers answer 204 or a short body of known length: read it whole, without a stream reader per attempt.
  // Only an uncompressed one: Content-Length counts the encoded bytes, and fetch inflates a compressed body (158 bytes
  // of brotli can be 200 MB of text), so those go through the bounded reader below.
  const length = res.headers.get("content-length");
  if (res.status === 204 || length === "0") return "";
  const encoding = res.headers.get("content-encoding");
  const plain = encoding === null || encoding.trim().toLowerCase() === "identity";
  if (plain && length !== null && Number(length) <= max) return (await res.text()).slice(0, max);
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  while (n < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    n += value.length;
  }
  await reader.cancel().catch(() => {});
  return utf8.decode(Buffer.concat(chunks).subarray(0, max));
}

interface Outcome {
  d: DeliveryRow;
  hook: WebhookRow;
  at: number;
  code: number | null;
  body: string | null;
  error: string | null;
  latencyMs: number;
}

/** Sends one delivery (signed, through safeFetch, the attempt's timeout for the whole call); records nothing. */
async function send(deps: AttemptDeps, d: DeliveryRow, hook: WebhookRow): Promise<Outcome> {
  const at = deps.now();
  const started = performance.now();
  const o: Outcome = { d, hook, at, code: null, body: null, error: null, latencyMs: 0 };
  try {
    const headers = signedHeaders(signersOf(hook, at, deps.webhooks.secrets.open), d.eventId, at, d.payload);
    const res = await safeFetch(
      hook.url,
      { method: "POST", headers, body: d.payload },
      { ...deps.webhooks.policy, timeoutMs: deps.timeoutMs ?? TIMEOUT_MS },
    );
    o.code = res.status;
    o.body = await head(res, BODY_KEPT);
  } catch (e) {
    o.error = e instanceof Error ? e.message : String(e);
  }
  o.latencyMs = Math.round(performance.now() - started);
  return o;
}

/**
 * Records a batch of attempts in one platform transaction: a 2xx settles a delivery, anything else schedules the next
 * try or, attempts used up, marks it FAILED. An endpoint failing for 24 h straight is disabled and the tenant's admins
 * are told. Returns the deliveries as recorded.
 */
function record(deps: AttemptDeps, outcomes: Outcome[]): DeliveryRow[] {
  let disabled = false;
  const q = writes(deps.platformDb);
  const endpoints = new Map<string, WebhookRow | null>();
  const rows = deps.platformDb.transaction((tx) =>
    outcomes.map(({ d, hook, at, code, body, error, latencyMs }) => {
      const ok = code !== null && code >= 200 && code < 300;
      const attempts = d.attempts + 1;
      const next = ok ? null : nextAttemptAt(at, attempts, deps.random);
      const changes = {
        attempts,
        lastStatusCode: code,
        status: ok ? "SUCCEEDED" : next === null ? "FAILED" : "PENDING",
        nextAttemptAt: next ?? at,
      } satisfies Partial<DeliveryRow>;
      q.attempt.run({
        id: crypto.randomUUID(),
        deliveryId: d.id,
        attemptedAt: at,
        statusCode: code,
        latencyMs,
        responseBody: body,
        error,
      });
      q.delivery.run({ ...changes, id: d.id });
      // The endpoint's failure record: read once per batch inside the transaction, then kept as the batch moves it.
      let current = endpoints.get(hook.id);
      if (current === undefined) endpoints.set(hook.id, (current = q.hook.get({ id: hook.id }) ?? null));
      if (current && ok && current.failingSince !== null) {
        q.failingSince.run({ id: hook.id, since: null });
        current.failingSince = null;
      }
      if (current && !ok) {
        const since = current.failingSince ?? at;
        if (current.failingSince === null) {
          q.failingSince.run({ id: hook.id, since: at });
          current.failingSince = at;
        }
        const reason = current.enabled ? disableReason(q, d, changes.status, at, since) : null;
        if (reason) {
          disable(tx as unknown as PlatformOrm, current, at, reason);
          current.enabled = false;
          disabled = true;
        }
      }
      return { ...d, ...changes } as DeliveryRow;
    }),
  );
  if (disabled) deps.webhooks.subscriptions.refresh();
  return rows;
}

// Drizzle types `set` without placeholders; as SQL they are filled in like any other.
const param = (name: string) => sql`${sql.placeholder(name)}`;

// The writes of each attempt, prepared once per database: built by Drizzle per row they cost more than the HTTP call.
const writes = (db: PlatformOrm) =>
  prepared(db, "webhookAttemptWrites", () => ({
    attempt: db
      .insert(webhookAttempts)
      .values({
        id: sql.placeholder("id"),
        deliveryId: sql.placeholder("deliveryId"),
        attemptedAt: sql.placeholder("attemptedAt"),
        statusCode: sql.placeholder("statusCode"),
        latencyMs: sql.placeholder("latencyMs"),
        responseBody: sql.placeholder("responseBody"),
        error: sql.placeholder("error"),
      })
      .prepare(),
    delivery: db
      .update(webhookDeliveries)
      .set({
        attempts: param("attempts"),
        lastStatusCode: param("lastStatusCode"),
        status: param("status"),
        nextAttemptAt: param("nextAttemptAt"),
      })
      .where(eq(webhookDeliveries.id, sql.placeholder("id")))
      .prepare(),
    hook: db
      .select()
      .from(webhooks)
      .where(eq(webhooks.id, sql.placeholder("id")))
      .prepare(),
    firstAttempt: db
      .select({ first: sql<number>`min(${webhookAttempts.attemptedAt})` })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, sql.placeholder("deliveryId")))
      .prepare(),
    failingSince: db
      .update(webhooks)
      .set({ failingSince: param("since") })
      .where(eq(webhooks.id, sql.placeholder("id")))
      .prepare(),
  }));

/**
 * Sends the claimed deliveries at once and records each attempt the moment it ends, in a transaction of its own: a
 * crash then resends only the attempts truly in flight, and a slow endpoint never holds back another's outcome.
 */
export async function attemptDeliveries(deps: AttemptDeps, batch: Array<{ d: DeliveryRow; h: WebhookRow }>) {
  return Promise.all(batch.map(async ({ d, h }) => record(deps, [await send(deps, d, h)])[0]));
}

/** One delivery now (the test ping). */
export async function attemptDelivery(deps: AttemptDeps, d: DeliveryRow, hook: WebhookRow): Promise<DeliveryRow> {
  return (await attemptDeliveries(deps, [{ d, h: hook }]))[0];
}

/**
 * Why a failing endpoint is disabled now, or null (docs/webhooks.md, "Disabling"): every attempt has failed for 24 h
 * straight, or a delivery has used up its attempts with no success of the endpoint since that delivery's first
 * attempt (a lone failing event counts: its last attempt comes a little before the 24 h).
 */
function disableReason(
  q: ReturnType<typeof writes>,
  d: DeliveryRow,
  status: string,
  at: number,
  since: number,
): string | null {
  const from = new Date(since).toISOString();
  if (status === "FAILED") {
    const first = q.firstAttempt.get({ deliveryId: d.id })?.first ?? at;
    // Not when the endpoint answered another delivery after this one's first attempt: it works, this event does not.
    if (since <= first)
      return `the delivery of event ${d.eventId} (${d.eventType}) failed all ${d.attempts + 1} attempts, with no successful delivery since ${from}`;
  }
  return at - since >= DISABLE_AFTER_MS ? `every delivery failed for 24 hours (since ${from})` : null;
}

function disable(tx: PlatformOrm, hook: WebhookRow, at: number, reason: string) {
  tx.update(webhooks)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date(at).toISOString() })
    .where(eq(webhooks.id, hook.id))
    .run();
  const admins = tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, hook.tenantId), eq(memberships.role, "ADMIN")))
    .all();
  for (const a of admins)
    notify(
      tx,
      {
        tenantId: hook.tenantId,
        userId: a.userId,
        type: "WEBHOOK_DISABLED",
        title: "Webhook disabled",
        body: `The webhook to ${hook.url} was disabled: ${reason}.`,
        link: `/webhooks/${hook.id}`,
      },
      at,
    );
}
