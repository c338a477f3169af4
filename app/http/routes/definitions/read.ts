import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth, requireManager } from "../../middleware/roles";
import { caseMonitor, caseMonitorItems } from "../../../services/process/case-monitor";
import { withAllReasons } from "../../../services/process/monitor-shape";
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
  r.openapi(list, (c) => c.json(c.var.ctx.processRuntime.listDefinitions(c.var.ctx.tenant.id), 200));
  r.openapi(detail, (c) =>
    c.json(c.var.ctx.processRuntime.getDefinition(c.var.ctx.tenant.id, c.req.valid("param").key), 200),
  );
  const isCase = (c: { var: AppEnv["Variables"] }, key: string) =>
    c.var.ctx.processRuntime.getDefinition(c.var.ctx.tenant.id, key).type === "CMMN";
  r.openapi(monitor, (c) => {
    const { key } = c.req.valid("param");
    const { version } = c.req.valid("query");
    const t = c.var.ctx.tenant.id;
    const monitor = isCase(c, key)
      ? caseMonitor(c.var.ctx, t, key, version)
      : c.var.ctx.processRuntime.monitor(t, key, version);
    return c.json(withAllReasons(monitor), 200);
  });
  r.openapi(monitorItems, (c) => {
    const { key, activityId } = c.req.valid("param");
    const { version } = c.req.valid("query");
    const t = c.var.ctx.tenant.id;
    const items = isCase(c, key)
      ? caseMonitorItems(c.var.ctx, t, key, activityId, version)
      : c.var.ctx.processRuntime.monitorItems(t, key, activityId, version);
    return c.json(items, 200);
  });
}
