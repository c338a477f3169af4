import { MAX_HISTORY_TTL_DAYS } from "../../runtime/kernel/history-cleanup";
import type { TenantCtx } from "../context";

export { MAX_HISTORY_TTL_DAYS };

export type RetentionCtx = TenantCtx<"processRuntime">;
export interface Retention {
  /** Days an ended instance of a definition without its own time-to-live is kept; null: kept forever. */
  defaultHistoryTimeToLive: number | null;
}

/** GET /a/history/retention (Admin): the tenant default history time-to-live. */
export function getRetention({ ctx }: { ctx: RetentionCtx; input?: undefined }): Retention {
  return { defaultHistoryTimeToLive: ctx.processRuntime.historyCleanup.tenantDefault(ctx.tenant.id) };
}

/** PUT /a/history/retention (Admin): sets the tenant default; definitions with their own time-to-live keep theirs. */
export async function putRetention({ ctx, input }: { ctx: RetentionCtx; input: Retention }): Promise<Retention> {
  await ctx.processRuntime.historyCleanup.setTenantDefault(ctx.tenant.id, input.defaultHistoryTimeToLive);
  return getRetention({ ctx });
}
