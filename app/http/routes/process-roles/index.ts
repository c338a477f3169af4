import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { requireAuth, requireModeler } from "../../middleware/roles";
import {
  addRoleMember,
  createProcessRole,
  deleteProcessRole,
  getProcessRole,
  listProcessRoles,
  removeRoleMember,
  renameProcessRole,
} from "../../../services/process-roles/manage";
import { AddMemberBody, CreateRoleBody, ListQuery, MemberParams, ProcessRoleSchema, RenameRoleBody } from "./schema";

const read = { tags: ["process roles"], security: tenantSecurity, middleware: requireAuth };
const write = { tags: ["process roles"], security: tenantSecurity, middleware: requireModeler };
const one = { 200: { description: "Process role", ...json(ProcessRoleSchema) }, ...errorResponses };

const list = createRoute({
  ...read,
  method: "get",
  path: "/a/process-roles",
  summary: "Process roles; with processKey, that process's and the tenant-wide ones",
  request: { query: ListQuery },
  responses: { 200: { description: "Roles", ...json(z.array(ProcessRoleSchema)) }, ...errorResponses },
});
const getOne = createRoute({
  ...read,
  method: "get",
  path: "/a/process-roles/{id}",
  summary: "One process role",
  request: { params: IdParam },
  responses: one,
});
const create = createRoute({
  ...write,
  method: "post",
  path: "/a/process-roles",
  summary: "Define a role for a process, or tenant-wide without processKey (Modeler)",
  request: { body: { ...json(CreateRoleBody), required: true } },
  responses: { 201: { description: "Created", ...json(ProcessRoleSchema) }, ...errorResponses },
});
const rename = createRoute({
  ...write,
  method: "put",
  path: "/a/process-roles/{id}",
  summary: "Rename a role; its key stays (Modeler)",
  request: { params: IdParam, body: { ...json(RenameRoleBody), required: true } },
  responses: one,
});
const remove = createRoute({
  ...write,
  method: "delete",
  path: "/a/process-roles/{id}",
  summary: "Delete a role and its assignments (Modeler)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const members = createRoute({
  ...read,
  method: "get",
  path: "/a/process-roles/{id}/members",
  summary: "Users holding the role",
  request: { params: IdParam },
  responses: { 200: { description: "Members", ...json(ProcessRoleSchema.shape.members) }, ...errorResponses },
});
const assign = createRoute({
  ...write,
  method: "post",
  path: "/a/process-roles/{id}/members",
  summary: "Assign a tenant member to the role (Modeler)",
  request: { params: IdParam, body: { ...json(AddMemberBody), required: true } },
  responses: { 201: { description: "The role with its members", ...json(ProcessRoleSchema) }, ...errorResponses },
});
const unassign = createRoute({
  ...write,
  method: "delete",
  path: "/a/process-roles/{id}/members/{userId}",
  summary: "Withdraw the role from a user (Modeler)",
  request: { params: MemberParams },
  responses: { 204: { description: "Removed" }, ...errorResponses },
});

/** /a/process-roles: the candidate groups of user tasks. */
export function processRolesRouter() {
  const r = createRouter();
  r.openapi(list, (c) =>
    c.json(listProcessRoles({ ctx: c.get("ctx"), input: { processKey: c.req.valid("query").processKey } }), 200),
  );
  r.openapi(getOne, (c) => c.json(getProcessRole({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(create, (c) => c.json(createProcessRole({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(rename, (c) =>
    c.json(
      renameProcessRole({ ctx: c.get("ctx"), input: { id: c.req.valid("param").id, ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteProcessRole({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(members, (c) => c.json(getProcessRole({ ctx: c.get("ctx"), input: c.req.valid("param") }).members, 200));
  r.openapi(assign, (c) =>
    c.json(
      addRoleMember({ ctx: c.get("ctx"), input: { id: c.req.valid("param").id, userId: c.req.valid("json").userId } }),
      201,
    ),
  );
  r.openapi(unassign, (c) => {
    const p = c.req.valid("param");
    removeRoleMember({ ctx: c.get("ctx"), input: { id: p.id, userId: p.userId } });
    return c.body(null, 204);
  });
  return r;
}
