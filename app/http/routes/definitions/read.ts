import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth, requireManager } from "../../middleware/roles";
import { definitionMonitor, definitionMonitorItems } from "../../../services/definitions/monitor";
import { getDefinition, listDefinitions } from "../../../services/definitions/read";
import { ActivityParams, DefinitionSchema, KeyParam, MonitorItemSchema, MonitorSchema, VersionQuery } from "./schema";

const tags = ["definitions"];

const list = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/definitions",
  summary: "Definitions of the tenant (not paginated)",
  responses: { 200: { description: "Definitions", ...json(z.array(DefinitionSchema)) }, ...errorResponses },
});
const detail = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/definitions/{key}",
  summary: "One definition with startFormKey",
  request: { params: KeyParam },
  responses: { 200: { description: "Definition", ...json(DefinitionSchema) }, ...errorResponses },
});
const monitor = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireManager,
  method: "get",
  path: "/a/definitions/{key}/monitor",
  summary: "Work parked per step (Manager); without version: the version with most running instances",
  request: { params: KeyParam, query: VersionQuery },
  responses: { 200: { description: "Monitor", ...json(MonitorSchema) }, ...errorResponses },
});
const monitorItems = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireManager,
  method: "get",
  path: "/a/definitions/{key}/monitor/{activityId}",
  summary: "Instances parked at one step (Manager)",
  request: { params: ActivityParams, query: VersionQuery },
  responses: { 200: { description: "Items", ...json(z.array(MonitorItemSchema)) }, ...errorResponses },
});

export function registerDefinitionReads(r: OpenAPIHono<AppEnv>) {
  r.openapi(list, (c) => c.json(listDefinitions({ ctx: c.get("ctx") }), 200));
  r.openapi(detail, (c) => c.json(getDefinition({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(monitor, (c) => {
    const input = { ...c.req.valid("param"), ...c.req.valid("query") };
    return c.json(definitionMonitor({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(monitorItems, (c) => {
    const input = { ...c.req.valid("param"), ...c.req.valid("query") };
    return c.json(definitionMonitorItems({ ctx: c.get("ctx"), input }), 200);
  });
}
