import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { listTenantProcessRoles } from "../../../services/admin-process-roles/tenant-process-roles";
import { ProcessRoleSchema } from "../process-roles/schema";

// The /api/admin/* guard already admits SUPER_ADMIN only.
const list = createRoute({
  tags: ["admin: tenants"],
  security: userSecurity,
  method: "get",
  path: "/admin/tenants/{id}/process-roles",
  summary: "Process roles of a tenant with their members (SA)",
  request: { params: IdParam },
  responses: { 200: { description: "Roles", ...json(z.array(ProcessRoleSchema)) }, ...errorResponses },
});

/** /admin/tenants/{id}/process-roles */
export function adminProcessRolesRouter() {
  const r = createRouter();
  r.openapi(list, (c) =>
    c.json(listTenantProcessRoles({ ctx: platformCtx(c), input: { tenantId: c.req.valid("param").id } }), 200),
  );
  return r;
}
