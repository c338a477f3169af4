import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import {
  completeExternalTask,
  extendExternalTaskLock,
  externalTaskBpmnError,
  externalTaskErrorDetails,
  unlockExternalTask,
  failExternalTask,
  fetchAndLock,
} from "../../../services/robot-runners/external-tasks";
import {
  BpmnErrorBody,
  CompleteBody,
  ExtendLockBody,
  ExternalTaskSchema,
  FailureBody,
  FailureResultSchema,
  FetchAndLockBody,
  runnerCommon,
  UnlockBody,
} from "./schema";

const base = "/a/robot-runners/external-task";
const onTask = <B extends z.ZodTypeAny>(name: string, summary: string, body: B) =>
  createRoute({
    ...runnerCommon,
    method: "post",
    path: `${base}/{id}/${name}`,
    summary,
    request: { params: IdParam, body: { ...json(body), required: true } },
    responses: { 204: { description: "Done" }, ...errorResponses },
  });

const fetch = createRoute({
  ...runnerCommon,
  method: "post",
  path: `${base}/fetchAndLock`,
  summary: "Lock up to maxTasks jobs of the topics (robot keys), waiting up to asyncResponseTimeout ms for work",
  request: { body: { ...json(FetchAndLockBody), required: true } },
  responses: { 200: { description: "Locked tasks", ...json(z.array(ExternalTaskSchema)) }, ...errorResponses },
});
const complete = onTask("complete", "Complete a locked task with variables", CompleteBody);
const bpmnError = onTask("bpmnError", "Throw a BPMN error at the task's step", BpmnErrorBody);
const extendLock = onTask("extendLock", "Extend the lock of a held task", ExtendLockBody);
// The real client posts `{}` to unlock, and may post nothing at all: the body is optional.
const unlock = createRoute({
  ...runnerCommon,
  method: "post",
  path: `${base}/{id}/unlock`,
  summary: "Give a held task back: due again at once for any runner of its topic",
  request: { params: IdParam, body: { ...json(UnlockBody), required: false } },
  responses: { 204: { description: "Done" }, ...errorResponses },
});
const errorDetails = createRoute({
  ...runnerCommon,
  method: "get",
  path: `${base}/{id}/errorDetails`,
  summary: "The errorDetails of the task's last failure (text; empty when none)",
  request: { params: IdParam },
  responses: {
    200: { description: "Error details", content: { "text/plain": { schema: z.string() } } },
    ...errorResponses,
  },
});
const failure = createRoute({
  ...runnerCommon,
  method: "post",
  path: `${base}/{id}/failure`,
  summary: "Report a failure: retries left and the wait before the next try; none left dead-letters the job",
  request: { params: IdParam, body: { ...json(FailureBody), required: true } },
  responses: { 200: { description: "Job state", ...json(FailureResultSchema) }, ...errorResponses },
});

/** The Camunda-style external task API; the caller is the runner its token names. */
export function registerExternalTaskRoutes(r: OpenAPIHono<AppEnv>) {
  r.openapi(fetch, async (c) =>
    c.json(await fetchAndLock({ ctx: c.get("ctx"), input: c.req.valid("json"), signal: c.req.raw.signal }), 200),
  );
  r.openapi(complete, async (c) => {
    await completeExternalTask({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } });
    return c.body(null, 204);
  });
  r.openapi(failure, async (c) =>
    c.json(
      await failExternalTask({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } }),
      200,
    ),
  );
  r.openapi(bpmnError, async (c) => {
    await externalTaskBpmnError({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } });
    return c.body(null, 204);
  });
  r.openapi(unlock, async (c) => {
    await unlockExternalTask({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(errorDetails, (c) =>
    c.text(externalTaskErrorDetails({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(extendLock, async (c) => {
    await extendExternalTaskLock({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } });
    return c.body(null, 204);
  });
}
