import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  updateTemplate,
} from "../../../services/admin-dmn-templates/templates";
import { KeyParam } from "../decisions/schema";

const TemplateSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    xml: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("DmnTemplate");
const CreateBody = z
  .object({
    key: z.string().min(1).max(100),
    name: z.string().min(1),
    description: z.string().nullable().optional(),
    xml: z.string().min(1),
  })
  .openapi("CreateDmnTemplateRequest");
const UpdateBody = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().nullable().optional(),
    xml: z.string().min(1).optional(),
  })
  .openapi("UpdateDmnTemplateRequest");
const common = { tags: ["admin: dmn templates"], security: userSecurity };

const list = createRoute({
  ...common,
  method: "get",
  path: "/admin/dmn-templates",
  summary: "Global DMN templates (SA)",
  responses: { 200: { description: "Templates", ...json(z.array(TemplateSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/admin/dmn-templates",
  summary: "Create a global DMN template (SA)",
  request: { body: { ...json(CreateBody), required: true } },
  responses: { 201: { description: "Created", ...json(TemplateSchema) }, ...errorResponses },
});
const update = createRoute({
  ...common,
  method: "put",
  path: "/admin/dmn-templates/{key}",
  summary: "Update a global DMN template (SA)",
  request: { params: KeyParam, body: { ...json(UpdateBody), required: true } },
  responses: { 200: { description: "Updated", ...json(TemplateSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/admin/dmn-templates/{key}",
  summary: "Delete a global DMN template (SA)",
  request: { params: KeyParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /admin/dmn-templates */
export function adminDmnTemplatesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listTemplates({ ctx: platformCtx(c) }), 200));
  r.openapi(create, async (c) =>
    c.json(await createTemplate({ ctx: platformCtx(c), input: c.req.valid("json") }), 201),
  );
  r.openapi(update, async (c) =>
    c.json(
      await updateTemplate({ ctx: platformCtx(c), input: { ...c.req.valid("json"), ...c.req.valid("param") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteTemplate({ ctx: platformCtx(c), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
