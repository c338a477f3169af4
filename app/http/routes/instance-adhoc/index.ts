import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam, VariablesInput } from "../../schemas";
import {
  completeAdhocSubProcess,
  enabledAdhocActivities,
  executeAdhocActivity,
} from "../../../services/instance-adhoc/adhoc";
import { TaskSchema } from "../tasks/schema";

const common = { tags: ["instances"], security: tenantSecurity, middleware: requireAuth };
const ActivityParams = IdParam.extend({
  activityId: z
    .string()
    .min(1)
    .openapi({ param: { name: "activityId", in: "path" } }),
});
const SubProcessParams = IdParam.extend({
  subProcessId: z
    .string()
    .min(1)
    .openapi({ param: { name: "subProcessId", in: "path" } }),
});
const EnabledSchema = z
  .object({ subProcessId: z.string(), activityId: z.string(), name: z.string().nullable(), type: z.string() })
  .openapi("AdhocActivity");

const enabled = createRoute({
  ...common,
  method: "get",
  path: "/a/instances/{id}/adhoc-activities",
  summary: "Activities a caller may start in the instance's running ad-hoc subprocesses",
  request: { params: IdParam },
  responses: { 200: { description: "Enabled activities", ...json(z.array(EnabledSchema)) }, ...errorResponses },
});
const execute = createRoute({
  ...common,
  method: "post",
  path: "/a/instances/{id}/adhoc-activities/{activityId}/execute",
  summary: "Start an enabled ad-hoc activity",
  request: {
    params: ActivityParams,
    body: { ...json(z.object({ variables: VariablesInput.optional() })), required: false },
  },
  responses: {
    200: {
      description: "Started",
      ...json(
        z.object({
          instanceId: z.string(),
          activityId: z.string(),
          executionId: z.string(),
          activeTasks: z.array(TaskSchema),
        }),
      ),
    },
    ...errorResponses,
  },
});
const complete = createRoute({
  ...common,
  method: "post",
  path: "/a/instances/{id}/adhoc-subprocesses/{subProcessId}/complete",
  summary: "Complete a running ad-hoc subprocess (409 while an activity runs)",
  request: { params: SubProcessParams },
  responses: {
    200: {
      description: "Completed",
      ...json(z.object({ instanceId: z.string(), subProcessId: z.string(), completed: z.boolean() })),
    },
    ...errorResponses,
  },
});

/** Ad-hoc subprocess work on an instance (Flowable's runtime calls, over HTTP). */
export function instanceAdhocRouter() {
  const r = createRouter();
  r.openapi(enabled, (c) => c.json(enabledAdhocActivities({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(execute, async (c) => {
    // The body is optional: an activity may start without variables.
    const body = (c.req.header("content-type") ?? "").includes("json") ? c.req.valid("json") : {};
    const input = { ...c.req.valid("param"), variables: body.variables };
    return c.json(await executeAdhocActivity({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(complete, async (c) =>
    c.json(await completeAdhocSubProcess({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  return r;
}
