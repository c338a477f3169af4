import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import { listAiModels } from "../../../services/ai-models/models";

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

/** /a/ai/models */
export function aiModelsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listAiModels({ ctx: c.get("ctx") }), 200));
  return r;
}
