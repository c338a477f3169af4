import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import * as shared from "../../../services/definitions/schemas";
import { validateProcess } from "../../../services/definitions/validate";

export const XmlBody = z.object({ xml: z.string().min(1) }).openapi("BpmnXmlBody");
export const FindingSchema = shared.FindingSchema.openapi("StructuralFinding");
const ValidationSchema = shared.ValidationSchema.openapi("BpmnValidation");

const validate = createRoute({
  tags: ["definitions"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "post",
  path: "/a/definitions/validate",
  summary:
    "Structural checks of a BPMN without deploying it: orphans, dead ends, gateways with no default, no diagram (Modeler)",
  request: { body: { ...json(XmlBody), required: true } },
  responses: { 200: { description: "Findings", ...json(ValidationSchema) }, ...errorResponses },
});

export function registerDefinitionValidation(r: OpenAPIHono<AppEnv>) {
  r.openapi(validate, async (c) =>
    c.json(await validateProcess({ ctx: c.get("ctx"), input: c.req.valid("json") }), 200),
  );
}
