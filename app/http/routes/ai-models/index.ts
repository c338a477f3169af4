import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin, requireModeler } from "../../middleware/roles";
import { listAiModels } from "../../../services/ai-models/models";
import { companyAiUsage } from "../../../services/ai-models/usage";
import { UsageSchema } from "../admin-tenants/ai-quota";

const ModelsSchema = z
  .object({
    active: z.boolean().openapi({ description: "false: no active model (AI features answer 409)" }),
    chatModel: z.string().nullable(),
    embeddingModel: z.string().nullable(),
    models: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["chat", "embedding"]),
        provider: z.string(),
        contextSize: z.number().int().nullable(),
      }),
    ),
  })
  .openapi("AiModels");

const list = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "get",
  path: "/a/ai/models",
  summary: "The configured models (Modeler); empty when no model is active",
  responses: { 200: { description: "Catalogue", ...json(ModelsSchema) }, ...errorResponses },
});

const usage = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireAdmin,
  method: "get",
  path: "/a/ai/usage",
  summary: "The company's AI quota and this month's use by feature and by person (Admin)",
  responses: {
    200: {
      description: "Usage",
      ...json(
        UsageSchema.extend({
          monthlyTokens: z.number().int().nullable().openapi({ description: "null: never configured (AI refused)" }),
        }).openapi("CompanyAiUsage"),
      ),
    },
    ...errorResponses,
  },
});

/** /a/ai/models, /a/ai/usage */
export function aiModelsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listAiModels({ ctx: c.get("ctx") }), 200));
  r.openapi(usage, (c) => c.json(companyAiUsage({ ctx: c.get("ctx") }), 200));
  return r;
}
