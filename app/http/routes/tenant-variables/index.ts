import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin, requireModeler } from "../../middleware/roles";
import {
  createVariable,
  deleteVariable,
  getVariable,
  listVariables,
  putVariable,
} from "../../../services/tenant-variables/manage";
import { PersonSchema } from "../../../services/people/people";

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const nameMessage = "must start with a letter or _ and hold up to 100 letters, digits or _ . -";
const MAX_VALUE = 65_536;

const VariableSchema = z
  .object({
    name: z.string(),
    value: z.string().nullable().openapi({ description: "null for a secret: secrets are write-only" }),
    secret: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    updatedBy: z.string().nullable(),
    updatedByUser: PersonSchema.nullable().openapi({ description: "who last wrote it (null when unknown)" }),
  })
  .openapi("TenantVariable");
const CreateBody = z
  .object({
    name: z.string().regex(NAME, nameMessage),
    value: z.string().max(MAX_VALUE),
    secret: z.boolean().optional(),
  })
  .openapi("CreateTenantVariableRequest");
const PutBody = z
  .object({ value: z.string().max(MAX_VALUE), secret: z.boolean().optional() })
  .openapi("PutTenantVariableRequest");
const NameParam = z.object({
  name: z
    .string()
    .regex(NAME, nameMessage)
    .openapi({ param: { name: "name", in: "path" } }),
});

// Admin writes; Modeler (and Admin) reads names and plain values. API keys hold no membership, so neither.
const read = { tags: ["tenant variables"], security: tenantSecurity, middleware: requireModeler };
const write = { tags: ["tenant variables"], security: tenantSecurity, middleware: requireAdmin };
const one = { 200: { description: "Variable", ...json(VariableSchema) }, ...errorResponses };

const list = createRoute({
  ...read,
  method: "get",
  path: "/a/variables",
  summary: "Tenant variables; secrets show value null (Modeler)",
  responses: { 200: { description: "Variables", ...json(z.array(VariableSchema)) }, ...errorResponses },
});
const getOne = createRoute({
  ...read,
  method: "get",
  path: "/a/variables/{name}",
  summary: "One variable (Modeler)",
  request: { params: NameParam },
  responses: one,
});
const create = createRoute({
  ...write,
  method: "post",
  path: "/a/variables",
  summary: "Create a value or a secret (Admin)",
  request: { body: { ...json(CreateBody), required: true } },
  responses: { 201: { description: "Created", ...json(VariableSchema) }, ...errorResponses },
});
const put = createRoute({
  ...write,
  method: "put",
  path: "/a/variables/{name}",
  summary: "Create or replace (Admin)",
  request: { params: NameParam, body: { ...json(PutBody), required: true } },
  responses: one,
});
const remove = createRoute({
  ...write,
  method: "delete",
  path: "/a/variables/{name}",
  summary: "Delete (Admin)",
  request: { params: NameParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/variables */
export function tenantVariablesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listVariables({ ctx: c.get("ctx") }), 200));
  r.openapi(getOne, (c) => c.json(getVariable({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(create, (c) => c.json(createVariable({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(put, (c) =>
    c.json(putVariable({ ctx: c.get("ctx"), input: { name: c.req.valid("param").name, ...c.req.valid("json") } }), 200),
  );
  r.openapi(remove, (c) => {
    deleteVariable({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
