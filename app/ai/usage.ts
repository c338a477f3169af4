import type { Database } from "bun:sqlite";
import { PaymentRequiredError } from "../../engine/errors";

/** Who a model call is charged to. Indexing is the system acting for a tenant: it counts against the tenant only. */
export interface AiCaller {
  tenantId: string | null;
  kind: "USER" | "API_KEY" | "SYSTEM";
  userId: string | null;
  apiKeyId: string | null;
  /** What the call is for ("kb-index", "kb-search", "ai-validation", ...). */
  feature: string;
}

export interface UsageRecord {
  model: string;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
}

/** Start of the calendar month (UTC) `now` falls in: quotas are tokens per month. */
export const monthStart = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/** Usage accounting and the two quotas (tenant per month, set by SUPER_ADMIN; the user's ceiling per month). */
export function createUsageLedger(db: Database, clock: () => number, newId: () => string) {
  const q = {
    insert: db.query(
      `INSERT INTO ai_usage (id, tenant_id, actor_kind, user_id, api_key_id, feature, model, input_tokens, output_tokens, duration_ms, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    tenantQuota: db.query<{ monthly_tokens: number }, [string]>(
      "SELECT monthly_tokens FROM tenant_ai_quotas WHERE tenant_id = ?",
    ),
    userQuota: db.query<{ ai_quota: number | null }, [string]>("SELECT ai_quota FROM users WHERE id = ?"),
    tenantUsed: db.query<{ n: number | null }, [string, number]>(
      "SELECT SUM(input_tokens + output_tokens) n FROM ai_usage WHERE tenant_id = ? AND created_at >= ?",
    ),
    userUsed: db.query<{ n: number | null }, [string, number]>(
      "SELECT SUM(input_tokens + output_tokens) n FROM ai_usage WHERE user_id = ? AND created_at >= ?",
    ),
  };
  return {
    /**
     * Refuses (402) a call over the tenant's quota or the user's ceiling. `requireTenantQuota`: features the spec
     * meters (AI validation, copilot) also refuse a tenant whose quota was never configured.
     */
    check(caller: AiCaller, requireTenantQuota: boolean): void {
      const since = monthStart(clock());
      if (caller.tenantId) {
        const quota = q.tenantQuota.get(caller.tenantId)?.monthly_tokens;
        if (quota === undefined && requireTenantQuota)
          throw new PaymentRequiredError("The tenant's AI quota was never configured");
        if (quota !== undefined && (q.tenantUsed.get(caller.tenantId, since)?.n ?? 0) >= quota)
          throw new PaymentRequiredError("The tenant's AI quota for this month is exhausted");
      }
      if (caller.kind === "USER" && caller.userId) {
        const ceiling = q.userQuota.get(caller.userId)?.ai_quota;
        if (ceiling !== null && ceiling !== undefined && (q.userUsed.get(caller.userId, since)?.n ?? 0) >= ceiling)
          throw new PaymentRequiredError("Your personal AI quota for this month is exhausted");
      }
    },
    record(caller: AiCaller, u: UsageRecord): void {
      q.insert.run(
        newId(),
        caller.tenantId,
        caller.kind,
        caller.kind === "USER" ? caller.userId : null,
        caller.apiKeyId,
        caller.feature,
        u.model,
        u.inputTokens,
        u.outputTokens,
        u.durationMs,
        clock(),
      );
    },
    /** Tokens the tenant used this month (for the quota route's answer). */
    tenantUsedThisMonth: (tenantId: string) => q.tenantUsed.get(tenantId, monthStart(clock()))?.n ?? 0,
  };
}
export type UsageLedger = ReturnType<typeof createUsageLedger>;
