import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { startInstance } from "../../../services/instances/start-instance";
import { instanceDetail, instanceDiagram, listInstances, searchInstances } from "../../../services/instances/read";
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
  summary:
    "Instances the caller takes part in (paginated, size ≤ 100): running by default; filtered by state, definition, version, business key, variable, start window",
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
  r.openapi(start, async (c) => c.json(await startInstance({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(list, (c) => c.json(listInstances({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(search, (c) => c.json(searchInstances({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(detail, (c) => c.json(instanceDetail({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(diagram, (c) => {
    const input = { ...c.req.valid("param"), ...c.req.valid("query") };
    const { body, type } = instanceDiagram({ ctx: c.get("ctx"), input });
    return c.body(body, 200, { "content-type": type });
  });
}
