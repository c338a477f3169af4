import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import {
  createProcessTemplate,
  deleteProcessTemplate,
  listProcessTemplates,
  updateProcessTemplate,
} from "../../../services/admin-process-templates/templates";
import { TemplateKeyParam } from "../process-templates/schema";

const TemplateSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    xml: z.string(),
    enabled: z.boolean().openapi({ description: "new tenants are subscribed at provisioning" }),
    version: z.number().int(),
    subscribers: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("ProcessTemplate");
const UpdatedSchema = TemplateSchema.extend({
  replication: z
    .object({ APPLIED: z.number().int(), UP_TO_DATE: z.number().int(), DIVERGED: z.number().int() })
    .openapi({ description: "subscribing tenants by outcome of this update" }),
}).openapi("UpdatedProcessTemplate");
const CreateBody = z
  .object({
    key: z.string().min(1).max(100).openapi({ description: "the id of the template's one executable process" }),
    name: z.string().min(1),
    xml: z.string().min(1),
    enabled: z.boolean().optional(),
  })
  .openapi("CreateProcessTemplateRequest");
const UpdateBody = z
  .object({ name: z.string().min(1).optional(), xml: z.string().min(1).optional(), enabled: z.boolean().optional() })
  .openapi("UpdateProcessTemplateRequest");
const common = { tags: ["admin: process templates"], security: userSecurity };

const list = createRoute({
  ...common,
  method: "get",
  path: "/admin/process-templates",
  summary: "Global process templates (SA)",
  responses: { 200: { description: "Templates", ...json(z.array(TemplateSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/admin/process-templates",
  summary: "Create a global process template (SA)",
  request: { body: { ...json(CreateBody), required: true } },
  responses: { 201: { description: "Created", ...json(TemplateSchema) }, ...errorResponses },
});
const update = createRoute({
  ...common,
  method: "put",
  path: "/admin/process-templates/{key}",
  summary: "Update a template; a new XML is a new version, deployed into every subscriber not diverged (SA)",
  request: { params: TemplateKeyParam, body: { ...json(UpdateBody), required: true } },
  responses: { 200: { description: "Updated", ...json(UpdatedSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/admin/process-templates/{key}",
  summary: "Delete a template; tenants keep their definitions (SA)",
  request: { params: TemplateKeyParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /admin/process-templates */
export function adminProcessTemplatesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listProcessTemplates({ ctx: platformCtx(c) }), 200));
  r.openapi(create, async (c) =>
    c.json(await createProcessTemplate({ ctx: platformCtx(c), input: c.req.valid("json") }), 201),
  );
  r.openapi(update, async (c) =>
    c.json(
      await updateProcessTemplate({ ctx: platformCtx(c), input: { ...c.req.valid("json"), ...c.req.valid("param") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteProcessTemplate({ ctx: platformCtx(c), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
