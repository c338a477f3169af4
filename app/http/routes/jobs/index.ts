import { createRoute, z } from "@hono/zod-openapi";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireManager } from "../../middleware/roles";
import { createRouter } from "../../router";
import { IdParam } from "../../schemas";
import { KeyParam } from "../definitions/schema";
import { JobExecutionSchema, JobSchema } from "./schema";
import { executeJob, listDefinitionJobs, listInstanceJobs } from "../../../services/jobs/jobs";

const common = { tags: ["jobs"], security: tenantSecurity, middleware: requireManager };
const jobList = { 200: { description: "Jobs, soonest due first", ...json(z.array(JobSchema)) }, ...errorResponses };

const ofInstance = createRoute({
  ...common,
  method: "get",
  path: "/a/instances/{id}/jobs",
  summary: "Every job of a process instance or case: timers, async steps, failed steps, robot work (Manager)",
  request: { params: IdParam },
  responses: jobList,
});
const ofDefinition = createRoute({
  ...common,
  method: "get",
  path: "/a/definitions/{key}/jobs",
  summary: "The timer-start jobs of a definition key (Manager)",
  request: { params: KeyParam },
  responses: jobList,
});
const execute = createRoute({
  ...common,
  method: "post",
  path: "/a/jobs/{id}/execute",
  summary: "Run a job now: a timer fires as if due, a failed job is tried once (Manager)",
  request: { params: IdParam },
  responses: { 200: { description: "What the run did", ...json(JobExecutionSchema) }, ...errorResponses },
});

/** Jobs as an operator drives them (Camunda's job API): list by instance or definition, run one now. */
export function jobsRouter() {
  const r = createRouter();
  r.openapi(ofInstance, (c) => c.json(listInstanceJobs({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(ofDefinition, (c) => c.json(listDefinitionJobs({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(execute, async (c) => c.json(await executeJob({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  return r;
}
