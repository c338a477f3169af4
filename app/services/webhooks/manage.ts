import { and, asc, eq } from "drizzle-orm";
import { webhooks } from "../../../db/platform/schema";
import type { TenantCtx } from "../context";
import { NotFoundError } from "../errors";
import type { WebhookRow } from "./attempt";
import { newSigningSecret } from "./envelope";
import { checkEvents, checkTargetUrl } from "./validate";

export type WebhooksCtx = TenantCtx<"platformDb" | "webhooks">;

/** The endpoint as GET shows it: never the secret. */
export function webhookView(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    events: JSON.parse(w.events) as string[],
    description: w.description,
    enabled: w.enabled,
    disabledReason: w.disabledReason,
    failingSince: w.failingSince === null ? null : new Date(w.failingSince).toISOString(),
    previousSecretValidUntil:
      w.previousSecretEnc && w.previousSecretUntil !== null ? new Date(w.previousSecretUntil).toISOString() : null,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

/** The tenant's endpoint, or 404 (another tenant's id included). */
export function webhookOf(ctx: WebhooksCtx, id: string): WebhookRow {
  const row = ctx.platformDb
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.tenantId, ctx.tenant.id)))
    .get();
  if (!row) throw new NotFoundError(`Webhook ${id} not found`);
  return row;
}

export interface WebhookInput {
  url: string;
  events: unknown;
  description?: string | null;
  enabled?: boolean;
}

/** POST /a/webhooks: the signing secret is in this answer only. */
export async function createWebhook({ ctx, input }: { ctx: WebhooksCtx; input: WebhookInput }) {
  const url = await checkTargetUrl(ctx.webhooks, input.url);
  const events = checkEvents(input.events);
  const secret = newSigningSecret();
  const now = new Date(ctx.clock.now()).toISOString();
  const row: WebhookRow = {
    id: crypto.randomUUID(),
    tenantId: ctx.tenant.id,
    url,
    events: JSON.stringify(events),
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    secretEnc: ctx.webhooks.secrets.seal(secret),
    previousSecretEnc: null,
    previousSecretUntil: null,
    failingSince: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  ctx.platformDb.insert(webhooks).values(row).run();
  ctx.webhooks.subscriptions.refresh();
  return { ...webhookView(row), secret };
}

export function listWebhooks({ ctx }: { ctx: WebhooksCtx; input?: undefined }) {
  return ctx.platformDb
    .select()
    .from(webhooks)
    .where(eq(webhooks.tenantId, ctx.tenant.id))
    .orderBy(asc(webhooks.createdAt))
    .all()
    .map(webhookView);
}

export function getWebhook({ ctx, input }: { ctx: WebhooksCtx; input: { id: string } }) {
  return webhookView(webhookOf(ctx, input.id));
}

/** PATCH /a/webhooks/{id}: absent fields keep their value; enabling again clears the failure record. */
export async function updateWebhook({
  ctx,
  input: { id, ...input },
}: {
  ctx: WebhooksCtx;
  input: Partial<WebhookInput> & { id: string };
}) {
  const row = webhookOf(ctx, id);
  const changes: Partial<WebhookRow> = { updatedAt: new Date(ctx.clock.now()).toISOString() };
  if (input.url !== undefined) changes.url = await checkTargetUrl(ctx.webhooks, input.url);
  if (input.events !== undefined) changes.events = JSON.stringify(checkEvents(input.events));
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    if (input.enabled && !row.enabled) Object.assign(changes, { failingSince: null, disabledReason: null });
  }
  ctx.platformDb.update(webhooks).set(changes).where(eq(webhooks.id, id)).run();
  ctx.webhooks.subscriptions.refresh();
  return webhookView({ ...row, ...changes });
}

export function deleteWebhook({ ctx, input }: { ctx: WebhooksCtx; input: { id: string } }) {
  webhookOf(ctx, input.id);
  ctx.platformDb.delete(webhooks).where(eq(webhooks.id, input.id)).run();
  ctx.webhooks.subscriptions.refresh();
}

/** How long the secret before a rotation keeps signing beside the new one, unless the rotation says otherwise. */
export const ROTATION_GRACE_SECONDS = 24 * 3600;
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;

/**
 * POST /a/webhooks/{id}/rotate-secret: a new secret, shown in this answer only. The one it replaces keeps signing
 * beside it for `graceSeconds` (default 24 h; 0 stops it at once), so receivers switch without a gap. Rotating again
 * within the grace period replaces the older secret: only the last two ever sign.
 */
export function rotateWebhookSecret({
  ctx,
  input,
}: {
  ctx: WebhooksCtx;
  input: { id: string; graceSeconds?: number };
}) {
  const row = webhookOf(ctx, input.id);
  const secret = newSigningSecret();
  const now = ctx.clock.now();
  const grace = input.graceSeconds ?? ROTATION_GRACE_SECONDS;
  const changes = {
    secretEnc: ctx.webhooks.secrets.seal(secret),
    previousSecretEnc: grace > 0 ? row.secretEnc : null,
    previousSecretUntil: grace > 0 ? now + grace * 1000 : null,
    updatedAt: new Date(now).toISOString(),
  };
  ctx.platformDb.update(webhooks).set(changes).where(eq(webhooks.id, row.id)).run();
  return { ...webhookView({ ...row, ...changes }), secret };
}
