import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { TenantRoleSchema } from "../../schemas";
import { requireAdmin } from "../../middleware/roles";
import { listTenantMembers } from "../../../services/members/list";

const TenantMemberSchema = z
  .object({
    membershipId: z.string(),
    userId: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string().nullable(),
    role: TenantRoleSchema,
    active: z.boolean(),
  })
  .openapi("TenantMember");

const list = createRoute({
  tags: ["members"],
  security: tenantSecurity,
  middleware: requireAdmin,
  method: "get",
  path: "/a/members",
  summary: "Members of the current tenant with their role (Admin)",
  responses: { 200: { description: "Members", ...json(z.array(TenantMemberSchema)) }, ...errorResponses },
});

/** /a/members */
export function membersRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listTenantMembers({ ctx: c.get("ctx") }), 200));
  return r;
}
