import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth, requireModeler } from "../../middleware/roles";
import { uploadedText } from "../../multipart";
import {
  cloneTemplate,
  decisionDetail,
  deployDecisions,
  evaluateTenantDecision,
  listTenantDecisions,
  offeredTemplates,
  removeDecision,
  updateDecision,
} from "../../../services/decisions/operations";
import {
  DecisionDetailSchema,
  DecisionSummarySchema,
  DeployedSchema,
  EvaluateBody,
  EvaluateResult,
  FileUpload,
  KeyParam,
  TableEditBody,
} from "./schema";

const design = { tags: ["decisions"], security: tenantSecurity, middleware: requireModeler };
const multipart = { content: { "multipart/form-data": { schema: FileUpload } } };

const list = createRoute({
  ...design,
  method: "get",
  path: "/a/decisions",
  summary: "Decisions of the tenant, latest versions (Modeler)",
  responses: { 200: { description: "Decisions", ...json(z.array(DecisionSummarySchema)) }, ...errorResponses },
});
const deploy = createRoute({
  ...design,
  method: "post",
  path: "/a/decisions",
  summary: "Deploy a .dmn file: each decision gets a new version (Modeler)",
  request: { body: multipart },
  responses: { 201: { description: "Deployed decisions", ...json(DeployedSchema) }, ...errorResponses },
});
const fromTemplate = createRoute({
  ...design,
  method: "post",
  path: "/a/decisions/from-template/{key}",
  summary: "Clone a global DMN template (Modeler)",
  request: { params: KeyParam },
  responses: { 201: { description: "Deployed decisions", ...json(DeployedSchema) }, ...errorResponses },
});
const templates = createRoute({
  ...design,
  method: "get",
  path: "/a/decision-templates",
  summary: "Global DMN templates a Modeler may copy into the tenant (Modeler)",
  responses: {
    200: {
      description: "Templates",
      ...json(
        z.array(
          z
            .object({ key: z.string(), name: z.string(), description: z.string().nullable(), updatedAt: z.string() })
            .openapi("OfferedDmnTemplate"),
        ),
      ),
    },
    ...errorResponses,
  },
});
const detail = createRoute({
  ...design,
  method: "get",
  path: "/a/decisions/{key}",
  summary: "Decision with its table, XML and versions (Modeler)",
  request: { params: KeyParam },
  responses: { 200: { description: "Decision", ...json(DecisionDetailSchema) }, ...errorResponses },
});
const update = createRoute({
  ...design,
  method: "put",
  path: "/a/decisions/{key}",
  summary: "New version: a new .dmn file (multipart `file`) or a JSON edit of the rules `{table}` (Modeler)",
  request: {
    params: KeyParam,
    body: { content: { ...multipart.content, "application/json": { schema: TableEditBody } } },
  },
  responses: {
    200: { description: "The new version", ...json(DeployedSchema.shape.decisions.element) },
    ...errorResponses,
  },
});
const evaluate = createRoute({
  tags: ["decisions"],
  security: tenantSecurity,
  middleware: requireAuth,
  method: "post",
  path: "/a/decisions/{key}/evaluate",
  summary: "Evaluate the latest version with inputs (any role)",
  request: { params: KeyParam, body: { ...json(EvaluateBody), required: true } },
  responses: { 200: { description: "Result and matched rule ids", ...json(EvaluateResult) }, ...errorResponses },
});
const remove = createRoute({
  ...design,
  method: "delete",
  path: "/a/decisions/{key}",
  summary: "Delete every version of a decision (Modeler)",
  request: { params: KeyParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/decisions */
export function decisionsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listTenantDecisions({ ctx: c.get("ctx") }), 200));
  r.openapi(templates, (c) => c.json(offeredTemplates({ ctx: c.get("ctx") }), 200));
  r.openapi(deploy, async (c) => {
    const { text } = await uploadedText(c, "file", /\.(dmn|dmn11\.xml|xml)$/i);
    return c.json(await deployDecisions({ ctx: c.get("ctx"), input: { xml: text } }), 201);
  });
  r.openapi(fromTemplate, async (c) =>
    c.json(await cloneTemplate({ ctx: c.get("ctx"), input: { templateKey: c.req.valid("param").key } }), 201),
  );
  r.openapi(detail, async (c) => c.json(await decisionDetail({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(update, async (c) => {
    const { key } = c.req.valid("param");
    const change = (c.req.header("content-type") ?? "").startsWith("multipart/")
      ? { xml: (await uploadedText(c, "file")).text }
      : { table: TableEditBody.parse(await c.req.json()).table };
    return c.json(await updateDecision({ ctx: c.get("ctx"), input: { key, ...change } }), 200);
  });
  r.openapi(evaluate, async (c) =>
    c.json(
      await evaluateTenantDecision({
        ctx: c.get("ctx"),
        input: { key: c.req.valid("param").key, variables: c.req.valid("json").variables },
      }),
      200,
    ),
  );
  r.openapi(remove, async (c) => {
    await removeDecision({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
