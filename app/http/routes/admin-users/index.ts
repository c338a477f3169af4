import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import {
  createUser,
  deactivateUser,
  listUsers,
  setAiQuota,
  setUserPassword,
  updateUser,
  getUser,
} from "../../../services/admin-users/users";
import {
  AiQuotaBody,
  CreateUserBody,
  PasswordBody,
  UpdateUserBody,
  UserListQuery,
  UserPage,
  UserSchema,
} from "./schema";

const common = { tags: ["admin: users"], security: userSecurity };

const list = createRoute({
  ...common,
  method: "get",
  path: "/admin/users",
  summary: "Search users (SA)",
  request: { query: UserListQuery },
  responses: { 200: { description: "Page of users", ...json(UserPage) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/admin/users",
  summary: "Create a user (SA)",
  request: { body: { ...json(CreateUserBody), required: true } },
  responses: { 201: { description: "Created", ...json(UserSchema) }, ...errorResponses },
});
const getOne = createRoute({
  ...common,
  method: "get",
  path: "/admin/users/{id}",
  summary: "One user (SA)",
  request: { params: IdParam },
  responses: { 200: { description: "User", ...json(UserSchema) }, ...errorResponses },
});
const update = createRoute({
  ...common,
  method: "put",
  path: "/admin/users/{id}",
  summary: "Update a user (SA)",
  request: { params: IdParam, body: { ...json(UpdateUserBody), required: true } },
  responses: { 200: { description: "Updated", ...json(UserSchema) }, ...errorResponses },
});
const deactivate = createRoute({
  ...common,
  method: "delete",
  path: "/admin/users/{id}",
  summary: "Deactivate a user (SA)",
  request: { params: IdParam },
  responses: { 204: { description: "Deactivated" }, ...errorResponses },
});
const password = createRoute({
  ...common,
  method: "put",
  path: "/admin/users/{id}/password",
  summary: "Set a user's password (SA)",
  request: { params: IdParam, body: { ...json(PasswordBody), required: true } },
  responses: { 204: { description: "Changed" }, ...errorResponses },
});
const quota = createRoute({
  ...common,
  method: "put",
  path: "/admin/users/{id}/ai-quota",
  summary: "Set a user's AI ceiling (SA)",
  request: { params: IdParam, body: { ...json(AiQuotaBody), required: true } },
  responses: { 200: { description: "User with the quota", ...json(UserSchema) }, ...errorResponses },
});

/** /admin/users (SUPER_ADMIN; the /admin/* guard runs before these handlers). */
export function adminUsersRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listUsers({ ctx: platformCtx(c), input: c.req.valid("query") }), 200));
  r.openapi(create, async (c) => c.json(await createUser({ ctx: platformCtx(c), input: c.req.valid("json") }), 201));
  r.openapi(getOne, (c) => c.json(getUser({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(update, (c) =>
    c.json(updateUser({ ctx: platformCtx(c), input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  r.openapi(deactivate, (c) => {
    deactivateUser({ ctx: platformCtx(c), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(password, async (c) => {
    await setUserPassword({ ctx: platformCtx(c), input: { ...c.req.valid("json"), ...c.req.valid("param") } });
    return c.body(null, 204);
  });
  r.openapi(quota, (c) =>
    c.json(setAiQuota({ ctx: platformCtx(c), input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  return r;
}
