import { monthStart } from "../../ai/usage";
import type { PlatformCtx } from "../context";
import { type Person, peopleByIds } from "../people/people";
import { findTenant } from "./tenants";

export type TenantAiUsageCtx = PlatformCtx<"platformDb" | "tenants">;

interface Share {
  tokens: number;
  calls: number;
}

export interface TenantAiUsageOut {
  tenantId: string;
  /** Start of the calendar month (UTC) the figures cover: what the quota counts. */
  since: string;
  tokens: number;
  calls: number;
  byFeature: (Share & { feature: string })[];
  /** Calls with no person behind them (indexing, API keys) are under `actorKind` SYSTEM or API_KEY, user null. */
  byCaller: (Share & { actorKind: string; userId: string | null; user: Person | null })[];
}

/** This month's tokens and calls of `tenantId`, by feature and by who made the calls (the person by name), largest first. */
export function usageOf(ctx: Pick<TenantAiUsageCtx, "platformDb" | "clock">, tenantId: string): TenantAiUsageOut {
  const since = monthStart(ctx.clock.now());
  const db = ctx.platformDb.$client;
  const sum = "SUM(input_tokens + output_tokens) tokens, COUNT(*) calls";
  const byFeature = db
    .query<Share & { feature: string }, [string, number]>(
      `SELECT feature, ${sum} FROM ai_usage WHERE tenant_id = ? AND created_at >= ? GROUP BY feature ORDER BY tokens DESC, feature`,
    )
    .all(tenantId, since);
  const callers = db
    .query<Share & { actorKind: string; userId: string | null }, [string, number]>(
      `SELECT actor_kind actorKind, user_id userId, ${sum} FROM ai_usage WHERE tenant_id = ? AND created_at >= ?
       GROUP BY actor_kind, user_id ORDER BY tokens DESC, user_id`,
    )
    .all(tenantId, since);
  const people = peopleByIds(
    ctx.platformDb,
    tenantId,
    callers.map((c) => c.userId),
  );
  return {
    tenantId,
    since: new Date(since).toISOString(),
    tokens: byFeature.reduce((n, f) => n + f.tokens, 0),
    calls: byFeature.reduce((n, f) => n + f.calls, 0),
    byFeature,
    byCaller: callers.map((c) => ({ ...c, user: (c.userId && people.get(c.userId)) || null })),
  };
}

/**
 * GET /admin/tenants/{id}/ai-usage (SA): a tenant's use this month, the figures behind `usedThisMonth` of the quota
 * answer.
 */
export function tenantAiUsage({ ctx, input }: { ctx: TenantAiUsageCtx; input: { id: string } }): TenantAiUsageOut {
  return usageOf(ctx, findTenant(ctx, input.id).id);
}
