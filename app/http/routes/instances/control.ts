import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireManager } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { FailedJobSchema, InstanceSchema, JobParam } from "./schema";
import {
  cancelInstance,
  deadletterFailedJob,
  listFailedJobs,
  retryFailedJob,
  setInstanceSuspended,
} from "../../../services/instances/control";

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
  r.openapi(failedJobs, (c) => c.json(listFailedJobs({ ctx: c.get("ctx") }), 200));
  r.openapi(retry, async (c) => c.json(await retryFailedJob({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(deadletter, async (c) =>
    c.json(await deadletterFailedJob({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(cancel, async (c) => c.json(await cancelInstance({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(suspend, async (c) => {
    const input = { id: c.req.valid("param").id, suspended: true };
    return c.json(await setInstanceSuspended({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(activate, async (c) => {
    const input = { id: c.req.valid("param").id, suspended: false };
    return c.json(await setInstanceSuspended({ ctx: c.get("ctx"), input }), 200);
  });
}
