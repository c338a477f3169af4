import { and, eq } from "drizzle-orm";
import { processTemplateSubscriptions as subs, type processTemplates } from "../../../db/platform/schema";
import type { PlatformCtx } from "../context";

export type TemplateRow = typeof processTemplates.$inferSelect;
export type SubscriptionRow = typeof subs.$inferSelect;
/** Replication reads and writes the subscriptions (platform) and deploys into the tenant (engine). */
export type ReplicateCtx = PlatformCtx<"platformDb" | "processRuntime">;
export type ReplicationOutcome = "APPLIED" | "UP_TO_DATE" | "DIVERGED";

/** Tenants in these states receive template versions; the others are out of service. */
export const RECEIVING = ["ACTIVE", "SUSPENDED", "CREATING"];

export const subscriptionOf = (ctx: Pick<ReplicateCtx, "platformDb">, tenantId: string, key: string) =>
  ctx.platformDb
    .select()
    .from(subs)
    .where(and(eq(subs.tenantId, tenantId), eq(subs.templateKey, key)))
    .get();

/**
 * Brings one subscribed tenant up to the template's version: deploys it as a new version of the tenant's own
 * definition of that key (file name `template-<key>-v<n>.bpmn`) and records which tenant version it became. The rule
 * that protects a tenant's own edits: when the tenant's latest version of the key is no longer the one the template
 * last made, the tenant deployed its own; the subscription turns DIVERGED and template versions stop being applied
 * (the tenant unsubscribes and subscribes again to take the template's version). Deploy and record are two databases:
 * a crash between them leaves the subscription looking DIVERGED, never an overwrite.
 */
export async function replicate(ctx: ReplicateCtx, tenantId: string, t: TemplateRow): Promise<ReplicationOutcome> {
  const sub = subscriptionOf(ctx, tenantId, t.key);
  if (!sub || sub.status === "DIVERGED") return "DIVERGED";
  const now = new Date(ctx.clock.now()).toISOString();
  const where = and(eq(subs.tenantId, tenantId), eq(subs.templateKey, t.key));
  const latest = ctx.processRuntime.hasDefinitionKey(tenantId, t.key)
    ? ctx.processRuntime.getDefinition(tenantId, t.key).latestVersion
    : null;
  if (latest !== (sub.definitionVersion ?? null)) {
    ctx.platformDb.update(subs).set({ status: "DIVERGED", updatedAt: now }).where(where).run();
    return "DIVERGED";
  }
  if (sub.appliedVersion === t.version) return "UP_TO_DATE";
  const deployed = await ctx.processRuntime.deploy(tenantId, t.xml, {
    fileName: `template-${t.key}-v${t.version}.bpmn`,
    createdBy: null,
  });
  const version = deployed.definitions.find((d) => d.key === t.key)?.version ?? null;
  ctx.platformDb
    .update(subs)
    .set({ appliedVersion: t.version, definitionVersion: version, updatedAt: now })
    .where(where)
    .run();
  return "APPLIED";
}

/**
 * Subscribes a tenant and applies the template at once; subscribing twice changes nothing. `adopt` takes the template
 * over the tenant's own definition of the key (a DIVERGED subscription, or a key the tenant deployed itself): the
 * template's version is deployed as the next version, the tenant's earlier versions stay in its history. Without it a
 * tenant's own definition is never replaced (the caller refuses). Provisioning subscribes new tenants this way too.
 */
export async function subscribe(
  ctx: ReplicateCtx,
  tenantId: string,
  t: TemplateRow,
  adopt = false,
): Promise<ReplicationOutcome> {
  const now = new Date(ctx.clock.now()).toISOString();
  ctx.platformDb
    .insert(subs)
    .values({ tenantId, templateKey: t.key, status: "SUBSCRIBED", createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .run();
  if (adopt) {
    const latest = ctx.processRuntime.hasDefinitionKey(tenantId, t.key)
      ? ctx.processRuntime.getDefinition(tenantId, t.key).latestVersion
      : null;
    ctx.platformDb
      .update(subs)
      .set({ status: "SUBSCRIBED", appliedVersion: null, definitionVersion: latest, updatedAt: now })
      .where(and(eq(subs.tenantId, tenantId), eq(subs.templateKey, t.key)))
      .run();
  }
  return replicate(ctx, tenantId, t);
}
