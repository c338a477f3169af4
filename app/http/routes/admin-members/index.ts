import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam, TenantRoleSchema } from "../../schemas";
import { addMember, changeMemberRole, listMembers, removeMember } from "../../../services/admin-members/members";

const MembershipSchema = z
  .object({ id: z.string(), userId: z.string(), tenantId: z.string(), role: TenantRoleSchema })
  .openapi("Membership");
const MemberRowSchema = MembershipSchema.extend({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  active: z.boolean(),
}).openapi("Member");
const AddBody = z.object({ userId: z.string().min(1), role: TenantRoleSchema }).openapi("AddMemberRequest");
const RoleBody = z.object({ role: TenantRoleSchema }).openapi("ChangeRoleRequest");
const MemberParams = IdParam.extend({
  membershipId: z.string().openapi({ param: { name: "membershipId", in: "path" } }),
});
const common = { tags: ["admin: members"], security: userSecurity };

const list = createRoute({
  ...common,
  method: "get",
  path: "/admin/tenants/{id}/members",
  summary: "Members of a tenant (SA)",
  request: { params: IdParam },
  responses: { 200: { description: "Members", ...json(z.array(MemberRowSchema)) }, ...errorResponses },
});
const add = createRoute({
  ...common,
  method: "post",
  path: "/admin/tenants/{id}/members",
  summary: "Add a member (SA)",
  request: { params: IdParam, body: { ...json(AddBody), required: true } },
  responses: { 201: { description: "Membership", ...json(MembershipSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/admin/tenants/{id}/members/{membershipId}",
  summary: "Remove a member (SA)",
  request: { params: MemberParams },
  responses: { 204: { description: "Removed" }, ...errorResponses },
});
const role = createRoute({
  ...common,
  method: "patch",
  path: "/admin/tenants/{id}/members/{membershipId}/role",
  summary: "Change a member's role (SA)",
  request: { params: MemberParams, body: { ...json(RoleBody), required: true } },
  responses: { 200: { description: "Membership", ...json(MembershipSchema) }, ...errorResponses },
});

/** /admin/tenants/{id}/members */
export function adminMembersRouter() {
  const r = createRouter();
  r.openapi(list, (c) =>
    c.json(listMembers({ ctx: platformCtx(c), input: { tenantId: c.req.valid("param").id } }), 200),
  );
  r.openapi(add, (c) =>
    c.json(
      addMember({ ctx: platformCtx(c), input: { tenantId: c.req.valid("param").id, ...c.req.valid("json") } }),
      201,
    ),
  );
  r.openapi(remove, (c) => {
    const { id, membershipId } = c.req.valid("param");
    removeMember({ ctx: platformCtx(c), input: { tenantId: id, membershipId } });
    return c.body(null, 204);
  });
  r.openapi(role, (c) => {
    const { id, membershipId } = c.req.valid("param");
    return c.json(
      changeMemberRole({ ctx: platformCtx(c), input: { tenantId: id, membershipId, ...c.req.valid("json") } }),
      200,
    );
  });
  return r;
}
