import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { visibilityOf } from "../../../services/process/visibility";
import { caseCounters } from "../../../services/process/case-monitor";

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
  r.openapi(dashboard, (c) => {
    const v = visibilityOf(c.var.ctx);
    const t = c.var.ctx.tenant.id;
    const counters = c.var.ctx.processRuntime.dashboard(t, v);
    const cases = caseCounters(c.var.ctx, t, v);
    return c.json(
      {
        ...counters,
        runningInstances: counters.runningInstances + cases.running,
        finishedInstances: counters.finishedInstances + cases.finished,
      },
      200,
    );
  });
  return r;
}
