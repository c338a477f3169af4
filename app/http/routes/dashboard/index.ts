import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { dashboardCounters } from "../../../services/dashboard/dashboard";

const DashboardSchema = z
  .object({
    definitions: z.number().int(),
    runningInstances: z.number().int(),
    finishedInstances: z.number().int(),
    activeTasks: z.number().int(),
    myTasks: z.number().int(),
    failedJobs: z.number().int(),
  })
  .openapi("Dashboard");

const dashboard = createRoute({
  tags: ["dashboard"],
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/dashboard",
  summary: "Counters by the caller's visibility, processes and cases (definitions tenant-wide)",
  responses: { 200: { description: "Counters", ...json(DashboardSchema) }, ...errorResponses },
});

/** /a/dashboard */
export function dashboardRouter() {
  const r = createRouter();
  r.openapi(dashboard, (c) => c.json(dashboardCounters({ ctx: c.get("ctx") }), 200));
  return r;
}
