import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import {
  createTenant,
  getTenant,
  listTenants,
  reactivateTenant,
  suspendTenant,
  updateTenant,
} from "../../../services/admin-tenants/tenants";
import { registerTenantAiQuota } from "./ai-quota";
import { registerTenantEndOfLife } from "./end-of-life";
import { CreateTenantBody, TenantListQuery, TenantPage, TenantSchema, UpdateTenantBody } from "./schema";

const common = { tags: ["admin: tenants"], security: userSecurity };
const one = { 200: { description: "Tenant", ...json(TenantSchema) }, ...errorResponses };

const list = createRoute({
  ...common,
  method: "get",
  path: "/admin/tenants",
  summary: "List tenants (SA)",
  request: { query: TenantListQuery },
  responses: { 200: { description: "Page of tenants", ...json(TenantPage) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/admin/tenants",
  summary: "Create a tenant; provisioning runs in the background (SA)",
  request: { body: { ...json(CreateTenantBody), required: true } },
  responses: { 202: { description: "Accepted, status CREATING", ...json(TenantSchema) }, ...errorResponses },
});
const getOne = createRoute({
  ...common,
  method: "get",
  path: "/admin/tenants/{id}",
  summary: "One tenant with status and error (SA)",
  request: { params: IdParam },
  responses: one,
});
const update = createRoute({
  ...common,
  method: "put",
  path: "/admin/tenants/{id}",
  summary: "Rename a tenant (SA)",
  request: { params: IdParam, body: { ...json(UpdateTenantBody), required: true } },
  responses: one,
});
const suspend = createRoute({
  ...common,
  method: "patch",
  path: "/admin/tenants/{id}/suspend",
  summary: "Suspend a tenant (SA)",
  request: { params: IdParam },
  responses: one,
});
const reactivate = createRoute({
  ...common,
  method: "patch",
  path: "/admin/tenants/{id}/reactivate",
  summary: "Reactivate a tenant (SA)",
  request: { params: IdParam },
  responses: one,
});

/** /admin/tenants */
export function adminTenantsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listTenants({ ctx: platformCtx(c), input: c.req.valid("query") }), 200));
  r.openapi(create, (c) => c.json(createTenant({ ctx: platformCtx(c), input: c.req.valid("json") }), 202));
  r.openapi(getOne, (c) => c.json(getTenant({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(update, (c) =>
    c.json(updateTenant({ ctx: platformCtx(c), input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  r.openapi(suspend, (c) => c.json(suspendTenant({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(reactivate, (c) => c.json(reactivateTenant({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  registerTenantAiQuota(r);
  registerTenantEndOfLife(r);
  return r;
}
