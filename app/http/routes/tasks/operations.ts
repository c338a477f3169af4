import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import {
  claimTask,
  completeTask,
  delegateTask,
  unclaimTask,
  writeTaskVariables,
} from "../../../services/tasks/operations";
import { addComment } from "../../../services/tasks/comments";
import { CommentBody, CommentSchema, CompleteBody, DelegateBody, TaskSchema, VariablesBody } from "./schema";

const common = { tags: ["tasks"], security: tenantSecurity, middleware: requireAuth };
const one = { 200: { description: "Task", ...json(TaskSchema) }, ...errorResponses };

const claim = createRoute({
  ...common,
  method: "post",
  path: "/a/tasks/{id}/claim",
  summary: "Claim the task",
  request: { params: IdParam },
  responses: one,
});
const unclaim = createRoute({
  ...common,
  method: "post",
  path: "/a/tasks/{id}/unclaim",
  summary: "Return the task to its candidates",
  request: { params: IdParam },
  responses: one,
});
const complete = createRoute({
  ...common,
  method: "post",
  path: "/a/tasks/{id}/complete",
  summary: "Complete with the form's variables (required fields checked)",
  request: { params: IdParam, body: { ...json(CompleteBody), required: false } },
  responses: one,
});
const delegate = createRoute({
  ...common,
  method: "post",
  path: "/a/tasks/{id}/delegate",
  summary: "Hand the task to another member",
  request: { params: IdParam, body: { ...json(DelegateBody), required: true } },
  responses: one,
});
const writeVariables = createRoute({
  ...common,
  method: "post",
  path: "/a/tasks/{id}/variables",
  summary: "Write variables without completing",
  request: { params: IdParam, body: { ...json(VariablesBody), required: true } },
  responses: {
    200: { description: "Variables after the write", ...json(z.record(z.string(), z.unknown())) },
    ...errorResponses,
  },
});
const comment = createRoute({
  ...common,
  method: "post",
  path: "/a/tasks/{id}/comments",
  summary: "Add a comment",
  request: { params: IdParam, body: { ...json(CommentBody), required: true } },
  responses: { 201: { description: "Comment", ...json(CommentSchema) }, ...errorResponses },
});

export function registerTaskOperations(r: OpenAPIHono<AppEnv>) {
  r.openapi(claim, async (c) =>
    c.json(await claimTask({ ctx: c.get("ctx"), input: { taskId: c.req.valid("param").id } }), 200),
  );
  r.openapi(unclaim, async (c) =>
    c.json(await unclaimTask({ ctx: c.get("ctx"), input: { taskId: c.req.valid("param").id } }), 200),
  );
  r.openapi(complete, async (c) => {
    // The body is optional: a completion without variables may send none at all.
    const body = (c.req.header("content-type") ?? "").includes("json") ? c.req.valid("json") : {};
    const input = { taskId: c.req.valid("param").id, variables: body.variables ?? {} };
    return c.json(await completeTask({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(delegate, async (c) => {
    const input = { taskId: c.req.valid("param").id, toUserId: c.req.valid("json").userId };
    return c.json(await delegateTask({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(writeVariables, async (c) => {
    const input = { taskId: c.req.valid("param").id, variables: c.req.valid("json").variables };
    return c.json(await writeTaskVariables({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(comment, async (c) => {
    const input = { taskId: c.req.valid("param").id, message: c.req.valid("json").message };
    return c.json(await addComment({ ctx: c.get("ctx"), input }), 201);
  });
}
