import { createRoute, z } from "@hono/zod-openapi";
import type { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { getTenantAiQuota, setTenantAiQuota } from "../../../services/admin-tenants/ai-quota";

const QuotaSchema = z
  .object({ tenantId: z.string(), monthlyTokens: z.number().int().nullable(), usedThisMonth: z.number().int() })
  .openapi("TenantAiQuota");
const QuotaBody = z.object({ monthlyTokens: z.number().int().min(0).nullable() }).openapi("TenantAiQuotaRequest");

const common = { tags: ["admin: tenants"], security: userSecurity };
const read = createRoute({
  ...common,
  method: "get",
  path: "/admin/tenants/{id}/ai-quota",
  summary: "The tenant's monthly AI token quota and this month's use (SA)",
  request: { params: IdParam },
  responses: { 200: { description: "Quota", ...json(QuotaSchema) }, ...errorResponses },
});
const write = createRoute({
  ...common,
  method: "put",
  path: "/admin/tenants/{id}/ai-quota",
  summary: "Set the tenant's monthly AI token quota; null = never configured (SA)",
  request: { params: IdParam, body: { ...json(QuotaBody), required: true } },
  responses: { 200: { description: "Quota", ...json(QuotaSchema) }, ...errorResponses },
});

export function registerTenantAiQuota(r: ReturnType<typeof createRouter>) {
  r.openapi(read, (c) => c.json(getTenantAiQuota({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(write, (c) =>
    c.json(setTenantAiQuota({ ctx: platformCtx(c), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 200),
  );
}
