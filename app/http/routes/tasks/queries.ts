import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { countTasks, listCompletedTasks, listTasks, taskDetail, taskVariables } from "../../../services/tasks/queries";
import { listComments } from "../../../services/tasks/comments";
import {
  CommentSchema,
  CompletedQuery,
  TaskCountSchema,
  TaskDetailSchema,
  TaskFilterQuery,
  TaskListQuery,
  TaskSchema,
} from "./schema";

const common = { tags: ["tasks"], security: tenantSecurity, middleware: requireAuth };

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/tasks",
  summary:
    "Open tasks the caller sees (plain array; page zero-based, size default 100, max 200), filtered, searched and sorted",
  request: { query: TaskListQuery },
  responses: { 200: { description: "Tasks", ...json(z.array(TaskSchema)) }, ...errorResponses },
});
const count = createRoute({
  ...common,
  method: "get",
  path: "/a/tasks/count",
  summary: "How many open tasks the caller sees match the filters of GET /a/tasks (the tasklist's figure per filter)",
  request: { query: TaskFilterQuery },
  responses: { 200: { description: "Count", ...json(TaskCountSchema) }, ...errorResponses },
});
const completed = createRoute({
  ...common,
  method: "get",
  path: "/a/tasks/completed",
  summary: "Completed tasks the caller sees (plain array)",
  request: { query: CompletedQuery },
  responses: { 200: { description: "Tasks", ...json(z.array(TaskSchema)) }, ...errorResponses },
});
const detail = createRoute({
  ...common,
  method: "get",
  path: "/a/tasks/{id}",
  summary: "Task with the form of its locked version",
  request: { params: IdParam },
  responses: { 200: { description: "Task", ...json(TaskDetailSchema) }, ...errorResponses },
});
const variables = createRoute({
  ...common,
  method: "get",
  path: "/a/tasks/{id}/variables",
  summary: "Variables visible to the task",
  request: { params: IdParam },
  responses: { 200: { description: "Variables", ...json(z.record(z.string(), z.unknown())) }, ...errorResponses },
});
const comments = createRoute({
  ...common,
  method: "get",
  path: "/a/tasks/{id}/comments",
  summary: "Comments, oldest first",
  request: { params: IdParam },
  responses: { 200: { description: "Comments", ...json(z.array(CommentSchema)) }, ...errorResponses },
});

export function registerTaskQueries(r: OpenAPIHono<AppEnv>) {
  r.openapi(list, (c) => c.json(listTasks({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(count, (c) => c.json(countTasks({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(completed, (c) => c.json(listCompletedTasks({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(detail, (c) => c.json(taskDetail({ ctx: c.get("ctx"), input: { taskId: c.req.valid("param").id } }), 200));
  r.openapi(variables, (c) =>
    c.json(taskVariables({ ctx: c.get("ctx"), input: { taskId: c.req.valid("param").id } }), 200),
  );
  r.openapi(comments, (c) =>
    c.json(listComments({ ctx: c.get("ctx"), input: { taskId: c.req.valid("param").id } }), 200),
  );
}
