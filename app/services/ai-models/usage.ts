import { monthlyQuotaOf } from "../admin-tenants/ai-quota";
import { type TenantAiUsageOut, usageOf } from "../admin-tenants/ai-usage";
import type { TenantCtx } from "../context";

/**
 * GET /a/ai/usage (Admin): the company's own AI quota and this month's use by feature and by person, the same figures
 * the SA reads under /admin, for the company's own tenant only.
 */
export function companyAiUsage({ ctx }: { ctx: TenantCtx<"platformDb">; input?: undefined }): TenantAiUsageOut & {
  monthlyTokens: number | null;
} {
  return { monthlyTokens: monthlyQuotaOf(ctx, ctx.tenant.id), ...usageOf(ctx, ctx.tenant.id) };
}
