import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin, requireModeler } from "../../middleware/roles";
import { activeDelegateArchives, listDelegates } from "../../../services/delegates/delegates";

const ParameterSchema = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  description: z.string(),
});
const DelegateSchema = z
  .object({ name: z.string(), className: z.string(), description: z.string(), parameters: z.array(ParameterSchema) })
  .openapi("Delegate");
const ArchiveSchema = z
  .object({ name: z.string(), active: z.boolean(), delegates: z.array(z.string()) })
  .openapi("DelegateArchive");

const list = createRoute({
  tags: ["delegates"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "get",
  path: "/a/delegates",
  summary: "Service-task delegates with their declared parameters (Modeler)",
  responses: { 200: { description: "Delegates", ...json(z.array(DelegateSchema)) }, ...errorResponses },
});
const active = createRoute({
  tags: ["delegates"],
  security: tenantSecurity,
  middleware: requireAdmin,
  method: "get",
  path: "/a/delegates/active",
  summary: "Active delegate archives (Admin): the built-in set is the only archive",
  responses: { 200: { description: "Archives", ...json(z.array(ArchiveSchema)) }, ...errorResponses },
});

/** /a/delegates */
export function delegatesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listDelegates({ ctx: c.get("ctx") }), 200));
  r.openapi(active, (c) => c.json(activeDelegateArchives({ ctx: c.get("ctx") }), 200));
  return r;
}
