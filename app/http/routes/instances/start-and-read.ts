import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { startInstance } from "../../../services/process/start-instance";
import { visibilityOf } from "../../../services/process/visibility";
import { instanceDetail, instanceDiagram, listInstances } from "../../../services/process/instances";
import {
  DiagramQuery,
  InstanceDetailSchema,
  InstancePage,
  ListQuery,
  SearchQuery,
  StartBody,
  StartedSchema,
} from "./schema";

const common = { tags: ["instances"], security: tenantSecurity, middleware: requireAuth };

const start = createRoute({
  ...common,
  method: "post",
  path: "/a/instances",
  summary: "Start an instance of the published (else latest) version",
  request: { body: { ...json(StartBody), required: true } },
  responses: { 201: { description: "Started", ...json(StartedSchema) }, ...errorResponses },
});
const list = createRoute({
  ...common,
  method: "get",
  path: "/a/instances",
  summary: "Running instances the caller takes part in (paginated, size ≤ 100)",
  request: { query: ListQuery },
  responses: { 200: { description: "Page", ...json(InstancePage) }, ...errorResponses },
});
const search = createRoute({
  ...common,
  method: "get",
  path: "/a/instances/search",
  summary: "Instances by variable value (paginated)",
  request: { query: SearchQuery },
  responses: { 200: { description: "Page", ...json(InstancePage) }, ...errorResponses },
});
const detail = createRoute({
  ...common,
  method: "get",
  path: "/a/instances/{id}",
  summary: "Instance with variables (404 when the caller takes no part)",
  request: { params: IdParam },
  responses: { 200: { description: "Instance", ...json(InstanceDetailSchema) }, ...errorResponses },
});
const diagram = createRoute({
  ...common,
  method: "get",
  path: "/a/instances/{id}/diagram",
  summary: "SVG with active activities highlighted (?format=xml for the BPMN); the CMMN XML for a case",
  request: { params: IdParam, query: DiagramQuery },
  responses: {
    200: {
      description: "Diagram",
      content: { "image/svg+xml": { schema: z.string() }, "application/xml": { schema: z.string() } },
    },
    ...errorResponses,
  },
});

export function registerInstanceStartAndRead(r: OpenAPIHono<AppEnv>) {
  r.openapi(start, async (c) => c.json(await startInstance(c.var.ctx, c.req.valid("json")), 201));
  r.openapi(list, (c) => c.json(listInstances(c.var.ctx, c.req.valid("query")) as never, 200));
  r.openapi(search, (c) => {
    const q = c.req.valid("query");
    return c.json(
      c.var.ctx.processRuntime.searchInstancesByVariable(
        c.var.ctx.tenant.id,
        visibilityOf(c.var.ctx),
        q.varName,
        q.varValue,
        q,
      ),
      200,
    );
  });
  r.openapi(detail, (c) => c.json(instanceDetail(c.var.ctx, c.req.valid("param").id) as never, 200));
  r.openapi(diagram, (c) => {
    const { body, type } = instanceDiagram(c.var.ctx, c.req.valid("param").id, c.req.valid("query").format);
    return c.body(body, 200, { "content-type": type });
  });
}
