import { createRoute, z } from "@hono/zod-openapi";
import type { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { deactivateTenant, dropTenant, exportTenant } from "../../../services/admin-tenants/end-of-life";
import { DropTenantBody, TenantSchema } from "./schema";

const common = { tags: ["admin: tenants"], security: userSecurity };
const deactivate = createRoute({
  ...common,
  method: "patch",
  path: "/admin/tenants/{id}/deactivate",
  summary: "Deactivate a suspended tenant: no requests, data kept, no way back (SA)",
  request: { params: IdParam },
  responses: { 200: { description: "Tenant", ...json(TenantSchema) }, ...errorResponses },
});
const drop = createRoute({
  ...common,
  method: "post",
  path: "/admin/tenants/{id}/drop",
  summary: "Drop a deactivated tenant: its file, files and shared rows are deleted by a durable job (SA)",
  request: { params: IdParam, body: { ...json(DropTenantBody), required: true } },
  responses: { 202: { description: "Drop job started; progress in `drop`", ...json(TenantSchema) }, ...errorResponses },
});
const exportRoute = createRoute({
  ...common,
  method: "get",
  path: "/admin/tenants/{id}/export",
  summary: "Tar of an online snapshot of the tenant's own database and stored files (SA)",
  request: { params: IdParam },
  responses: {
    200: {
      description: "tenant.json, backup-manifest.json, tenant.sqlite and files/",
      content: { "application/x-tar": { schema: z.string().openapi({ type: "string", format: "binary" }) } },
    },
    ...errorResponses,
  },
});

export function registerTenantEndOfLife(r: ReturnType<typeof createRouter>) {
  r.openapi(deactivate, (c) => c.json(deactivateTenant({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(drop, (c) =>
    c.json(dropTenant({ ctx: platformCtx(c), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 202),
  );
  r.openapi(exportRoute, (c) => {
    const { fileName, stream } = exportTenant({ ctx: platformCtx(c), input: c.req.valid("param") });
    return c.body(stream, 200, {
      "content-type": "application/x-tar",
      "content-disposition": `attachment; filename="${fileName}"`,
    });
  });
}
