import type { PlatformCtx } from "../context";
import { findTenant } from "./tenants";

export type TenantAiQuotaCtx = PlatformCtx<"platformDb" | "tenants" | "ai">;

export interface TenantAiQuotaOut {
  tenantId: string;
  /** Tokens per calendar month (UTC); null = never configured (metered AI features answer 402). */
  monthlyTokens: number | null;
  usedThisMonth: number;
}

/** The tenant's monthly token quota, or null when never configured. */
export const monthlyQuotaOf = (ctx: Pick<TenantAiQuotaCtx, "platformDb">, tenantId: string): number | null =>
  ctx.platformDb.$client
    .query<{ monthly_tokens: number }, [string]>("SELECT monthly_tokens FROM tenant_ai_quotas WHERE tenant_id = ?")
    .get(tenantId)?.monthly_tokens ?? null;

const read = (ctx: TenantAiQuotaCtx, tenantId: string): TenantAiQuotaOut => ({
  tenantId,
  monthlyTokens: monthlyQuotaOf(ctx, tenantId),
  usedThisMonth: ctx.ai.ledger.tenantUsedThisMonth(tenantId),
});

/** GET /admin/tenants/{id}/ai-quota */
export function getTenantAiQuota({ ctx, input }: { ctx: TenantAiQuotaCtx; input: { id: string } }) {
  return read(ctx, findTenant(ctx, input.id).id);
}

/** PUT /admin/tenants/{id}/ai-quota {monthlyTokens}: null removes it (back to never configured). */
export function setTenantAiQuota({
  ctx,
  input,
}: {
  ctx: TenantAiQuotaCtx;
  input: { id: string; monthlyTokens: number | null };
}): TenantAiQuotaOut {
  const t = findTenant(ctx, input.id);
  const db = ctx.platformDb.$client;
  if (input.monthlyTokens === null) db.query("DELETE FROM tenant_ai_quotas WHERE tenant_id = ?").run(t.id);
  else
    db.query(
      "INSERT INTO tenant_ai_quotas (tenant_id, monthly_tokens, updated_at) VALUES (?, ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET monthly_tokens = excluded.monthly_tokens, updated_at = excluded.updated_at",
    ).run(t.id, input.monthlyTokens, new Date(ctx.clock.now()).toISOString());
  return read(ctx, t.id);
}
