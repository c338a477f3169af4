import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { createRunner, listRunners, revokeRunner } from "../../../services/robot-runners/manage";
import { registerExternalTaskRoutes } from "./external-task";
import { common, CreateRunnerBody, RunnerSchema, RunnerWithTokenSchema } from "./schema";

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/robot-runners",
  summary: "Registered robot runners, revoked ones included (Admin)",
  responses: { 200: { description: "Runners", ...json(z.array(RunnerSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/a/robot-runners",
  summary: "Register a runner; its token is shown once (Admin)",
  request: { body: { ...json(CreateRunnerBody), required: true } },
  responses: { 201: { description: "Created", ...json(RunnerWithTokenSchema) }, ...errorResponses },
});
const revoke = createRoute({
  ...common,
  method: "delete",
  path: "/a/robot-runners/{id}",
  summary: "Revoke a runner: its token stops working, its locked jobs return to the queue (Admin)",
  request: { params: IdParam },
  responses: { 204: { description: "Revoked" }, ...errorResponses },
});

/** /a/robot-runners: registration (Admin) and the external task API (the runner's token). */
export function robotRunnersRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listRunners({ ctx: c.get("ctx") }), 200));
  r.openapi(create, (c) => c.json(createRunner({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(revoke, async (c) => {
    await revokeRunner({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  registerExternalTaskRoutes(r);
  return r;
}
