import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { findTenant } from "../../../services/admin-tenants/tenants";
import { DefinitionSchema } from "../definitions/schema";

const list = createRoute({
  tags: ["admin: tenants"],
  security: userSecurity,
  method: "get",
  path: "/admin/tenants/{id}/definitions",
  summary: "Definitions of a tenant (SA)",
  request: { params: IdParam },
  responses: { 200: { description: "Definitions", ...json(z.array(DefinitionSchema)) }, ...errorResponses },
});

/** /admin/tenants/{id}/definitions */
export function adminTenantDefinitionsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => {
    const ctx = platformCtx(c);
    const tenant = findTenant(ctx, c.req.valid("param").id);
    return c.json(ctx.processRuntime.listDefinitions(tenant.id), 200);
  });
  return r;
}
