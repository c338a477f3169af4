import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin } from "../../middleware/roles";
import {
  listTenantTemplates,
  subscribeTenant,
  unsubscribeTenant,
} from "../../../services/process-templates/subscriptions";
import { SubscribeQuery, TemplateKeyParam, TenantTemplateSchema } from "./schema";

const common = { tags: ["process templates"], security: tenantSecurity, middleware: requireAdmin };
const list = createRoute({
  ...common,
  method: "get",
  path: "/a/process-templates",
  summary: "Global process templates with this tenant's subscription (Admin)",
  responses: { 200: { description: "Templates", ...json(z.array(TenantTemplateSchema)) }, ...errorResponses },
});
const subscribe = createRoute({
  ...common,
  method: "put",
  path: "/a/process-templates/{key}/subscription",
  summary: "Subscribe: the template is deployed as the tenant's own definition, with every later version (Admin)",
  request: { params: TemplateKeyParam, query: SubscribeQuery },
  responses: { 200: { description: "Subscribed", ...json(TenantTemplateSchema) }, ...errorResponses },
});
const unsubscribe = createRoute({
  ...common,
  method: "delete",
  path: "/a/process-templates/{key}/subscription",
  summary: "Unsubscribe: no later versions; the definitions stay the tenant's (Admin)",
  request: { params: TemplateKeyParam },
  responses: { 204: { description: "Unsubscribed" }, ...errorResponses },
});

/** /a/process-templates */
export function processTemplatesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listTenantTemplates({ ctx: c.get("ctx") }), 200));
  r.openapi(subscribe, async (c) => {
    const input = { ...c.req.valid("param"), adopt: c.req.valid("query").adopt === "true" };
    return c.json(await subscribeTenant({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(unsubscribe, (c) => {
    unsubscribeTenant({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
