import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { pageSchema, PageQuery } from "../../schemas";
import { listAiTaskFailures } from "../../../services/ai-task-failures/failures";
import * as shared from "../../../services/ai-task-failures/schemas";

const FailureSchema = shared.FailureSchema.openapi("AiTaskFailure");

const list = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/ai-task-failures",
  summary: "Failed AI steps of the tenant, one row per step, newest first (size default 20)",
  request: { query: PageQuery.extend({ businessKey: z.string().optional() }) },
  responses: {
    200: { description: "Page of failures", ...json(pageSchema(FailureSchema, "AiTaskFailurePage")) },
    ...errorResponses,
  },
});

/** /a/ai-task-failures: read only; there is no retry or dead-letter of AI failures through the API. */
export function aiTaskFailuresRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listAiTaskFailures({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  return r;
}
