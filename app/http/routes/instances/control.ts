import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireManager } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { FailedJobSchema, InstanceSchema, JobParam } from "./schema";
import { cancelInstance, setInstanceSuspended } from "../../../services/process/instances";

const common = { tags: ["instances"], security: tenantSecurity, middleware: requireManager };
const one = { 200: { description: "Instance", ...json(InstanceSchema) }, ...errorResponses };

const failedJobs = createRoute({
  ...common,
  method: "get",
  path: "/a/instances/failed-jobs",
  summary: "Failed jobs of the tenant (Manager)",
  responses: { 200: { description: "Jobs", ...json(z.array(FailedJobSchema)) }, ...errorResponses },
});
const retry = createRoute({
  ...common,
  method: "post",
  path: "/a/instances/failed-jobs/{jobId}/retry",
  summary: "Back to executable with retries reset (Manager)",
  request: { params: JobParam },
  responses: { 200: { description: "Job", ...json(FailedJobSchema.partial()) }, ...errorResponses },
});
const deadletter = createRoute({
  ...common,
  method: "post",
  path: "/a/instances/failed-jobs/{jobId}/deadletter",
  summary: "Move to dead-letter, stopping retries (Manager)",
  request: { params: JobParam },
  responses: { 200: { description: "Job", ...json(FailedJobSchema) }, ...errorResponses },
});
const cancel = createRoute({
  ...common,
  method: "delete",
  path: "/a/instances/{id}",
  summary: "Cancel an instance (Manager)",
  request: { params: IdParam },
  responses: one,
});
const suspend = createRoute({
  ...common,
  method: "patch",
  path: "/a/instances/{id}/suspend",
  summary: "Suspend (BPMN only) (Manager)",
  request: { params: IdParam },
  responses: one,
});
const activate = createRoute({
  ...common,
  method: "patch",
  path: "/a/instances/{id}/activate",
  summary: "Activate (BPMN only) (Manager)",
  request: { params: IdParam },
  responses: one,
});

export function registerInstanceControl(r: OpenAPIHono<AppEnv>) {
  const rt = (c: { var: AppEnv["Variables"] }) => c.var.ctx.processRuntime;
  r.openapi(failedJobs, (c) => c.json(rt(c).failedJobs(c.var.ctx.tenant.id), 200));
  r.openapi(retry, (c) => c.json(rt(c).retryJob(c.var.ctx.tenant.id, c.req.valid("param").jobId), 200));
  r.openapi(deadletter, (c) => c.json(rt(c).deadletterJob(c.var.ctx.tenant.id, c.req.valid("param").jobId), 200));
  r.openapi(cancel, async (c) => c.json((await cancelInstance(c.var.ctx, c.req.valid("param").id)) as never, 200));
  r.openapi(suspend, (c) => c.json(setInstanceSuspended(c.var.ctx, c.req.valid("param").id, true), 200));
  r.openapi(activate, (c) => c.json(setInstanceSuspended(c.var.ctx, c.req.valid("param").id, false), 200));
}
