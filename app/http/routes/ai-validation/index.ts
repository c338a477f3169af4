import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import { FindingSchema, XmlBody } from "../definitions/validate";
import { Review, reviewBpmn } from "../../../services/ai-validation/review";

const ReviewSchema = z
  .object({
    findings: z.array(FindingSchema).openapi({ description: "Structural findings (no model involved)" }),
    warnings: z.array(z.string()),
    review: Review,
    model: z.string().nullable(),
  })
  .openapi("BpmnReview");

const review = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "post",
  path: "/a/ai-validation/bpmn",
  summary: "Semantic review of a BPMN by the AI model, with the structural findings (Modeler; 402 quota, 409 no model)",
  request: { body: { ...json(XmlBody), required: true } },
  responses: { 200: { description: "Review", ...json(ReviewSchema) }, ...errorResponses },
});

/** /a/ai-validation/bpmn */
export function aiValidationRouter() {
  const r = createRouter();
  r.openapi(review, async (c) => c.json(await reviewBpmn({ ctx: c.get("ctx"), input: c.req.valid("json") }), 200));
  return r;
}
