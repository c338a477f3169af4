import { createRoute, z } from "@hono/zod-openapi";
import type { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { getTenantAiQuota, setTenantAiQuota } from "../../../services/admin-tenants/ai-quota";
import { tenantAiUsage } from "../../../services/admin-tenants/ai-usage";
import { PersonSchema } from "../../../services/people/people";

const QuotaSchema = z
  .object({ tenantId: z.string(), monthlyTokens: z.number().int().nullable(), usedThisMonth: z.number().int() })
  .openapi("TenantAiQuota");
const QuotaBody = z.object({ monthlyTokens: z.number().int().min(0).nullable() }).openapi("TenantAiQuotaRequest");

const Share = { tokens: z.number().int(), calls: z.number().int() };
export const UsageSchema = z
  .object({
    tenantId: z.string(),
    since: z.string().openapi({ description: "start of the calendar month (UTC) the figures cover" }),
    ...Share,
    byFeature: z.array(z.object({ feature: z.string(), ...Share })),
    byCaller: z.array(
      z.object({
        actorKind: z.string().openapi({ description: "USER, API_KEY or SYSTEM (indexing)" }),
        userId: z.string().nullable(),
        user: PersonSchema.nullable(),
        ...Share,
      }),
    ),
  })
  .openapi("TenantAiUsage");

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

const usage = createRoute({
  ...common,
  method: "get",
  path: "/admin/tenants/{id}/ai-usage",
  summary: "This month's AI tokens and calls of the tenant, by feature and by caller (SA)",
  request: { params: IdParam },
  responses: { 200: { description: "Usage", ...json(UsageSchema) }, ...errorResponses },
});

export function registerTenantAiQuota(r: ReturnType<typeof createRouter>) {
  r.openapi(usage, (c) => c.json(tenantAiUsage({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(read, (c) => c.json(getTenantAiQuota({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(write, (c) =>
    c.json(setTenantAiQuota({ ctx: platformCtx(c), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 200),
  );
}
