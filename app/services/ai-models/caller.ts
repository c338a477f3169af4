import type { AiCaller } from "../../ai/usage";
import type { TenantCtx } from "../context";

/** Who a model call made for this ctx is charged to: a user (id in the usage row), an API key, or the system for jobs. */
export function callerOf(ctx: Pick<TenantCtx<never>, "tenant" | "actor">, feature: string): AiCaller {
  const a = ctx.actor;
  const kind = a.kind === "user" ? "USER" : a.kind === "apiKey" ? "API_KEY" : "SYSTEM";
  return { tenantId: ctx.tenant.id, kind, userId: a.userId, apiKeyId: a.apiKeyId, feature };
}
