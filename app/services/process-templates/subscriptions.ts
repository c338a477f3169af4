import { and, asc, eq } from "drizzle-orm";
import { processTemplateSubscriptions as subs, processTemplates } from "../../../db/platform/schema";
import type { TenantCtx } from "../context";
import { ConflictError, NotFoundError } from "../errors";
import { subscribe, subscriptionOf, type SubscriptionRow, type TemplateRow } from "./replicate";

/** A tenant Admin's view of the global templates and of its own subscriptions. */
export type TenantTemplatesCtx = TenantCtx<"platformDb" | "processRuntime">;

const view = (t: TemplateRow, s: SubscriptionRow | undefined) => ({
  key: t.key,
  name: t.name,
  version: t.version,
  subscription: s
    ? {
        status: s.status as "SUBSCRIBED" | "DIVERGED",
        appliedVersion: s.appliedVersion,
        definitionVersion: s.definitionVersion,
        since: s.createdAt,
      }
    : null,
});

const templateOf = (ctx: TenantTemplatesCtx, key: string) => {
  const t = ctx.platformDb.select().from(processTemplates).where(eq(processTemplates.key, key)).get();
  if (!t) throw new NotFoundError(`Process template '${key}' not found`);
  return t;
};

/** GET /a/process-templates: every template, with this tenant's subscription (or null). */
export function listTenantTemplates({ ctx }: { ctx: TenantTemplatesCtx; input?: undefined }) {
  const mine = new Map(
    ctx.platformDb
      .select()
      .from(subs)
      .where(eq(subs.tenantId, ctx.tenant.id))
      .all()
      .map((s) => [s.templateKey, s]),
  );
  return ctx.platformDb
    .select()
    .from(processTemplates)
    .orderBy(asc(processTemplates.key))
    .all()
    .map((t) => view(t, mine.get(t.key)));
}

/**
 * PUT /a/process-templates/{key}/subscription: deploys the template's version as the tenant's own definition now and
 * every later version as it comes. When the tenant holds its own definition of that key (never subscribed, or
 * DIVERGED) it answers 409 unless `adopt` is true; subscribing again is a no-op.
 */
export async function subscribeTenant({
  ctx,
  input: { key, adopt },
}: {
  ctx: TenantTemplatesCtx;
  input: { key: string; adopt?: boolean };
}) {
  const t = templateOf(ctx, key);
  const sub = subscriptionOf(ctx, ctx.tenant.id, key);
  const own = sub ? sub.status === "DIVERGED" : ctx.processRuntime.hasDefinitionKey(ctx.tenant.id, key);
  if (own && !adopt)
    throw new ConflictError(
      `The tenant has its own definition '${key}'; subscribe with adopt=true to deploy the template's version over it`,
    );
  await subscribe(ctx, ctx.tenant.id, t, own);
  return view(t, subscriptionOf(ctx, ctx.tenant.id, key));
}

/** DELETE /a/process-templates/{key}/subscription: no later versions; the definitions deployed so far stay the tenant's. */
export function unsubscribeTenant({ ctx, input: { key } }: { ctx: TenantTemplatesCtx; input: { key: string } }) {
  templateOf(ctx, key);
  if (!subscriptionOf(ctx, ctx.tenant.id, key)) throw new NotFoundError(`The tenant is not subscribed to '${key}'`);
  ctx.platformDb
    .delete(subs)
    .where(and(eq(subs.tenantId, ctx.tenant.id), eq(subs.templateKey, key)))
    .run();
}
