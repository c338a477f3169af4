import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin, requireAuth, requireModeler } from "../../middleware/roles";
import {
  deleteProcessVariable,
  listProcessVariables,
  listPublicProcessVariables,
  putProcessVariable,
} from "../../../services/definitions/variables";
import { KeyParam } from "./schema";

const VariableSchema = z
  .object({
    name: z.string(),
    value: z.string().nullable(),
    secret: z.boolean(),
    description: z.string().nullable(),
    updatedAt: z.string(),
  })
  .openapi("ProcessVariable");
const NameParams = KeyParam.extend({
  name: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/)
    .openapi({ param: { name: "name", in: "path" } }),
});
const PutBody = z
  .object({ value: z.string(), secret: z.boolean().optional(), description: z.string().nullable().optional() })
  .openapi("ProcessVariableRequest");
const tags = ["definitions"];

const listAll = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireAdmin,
  method: "get",
  path: "/a/definitions/{key}/variables",
  summary: "Process configuration variables, secrets masked (Admin)",
  request: { params: KeyParam },
  responses: { 200: { description: "Variables", ...json(z.array(VariableSchema)) }, ...errorResponses },
});
const listPublic = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/definitions/{key}/variables/public",
  summary: "The non-secret process configuration variables",
  request: { params: KeyParam },
  responses: { 200: { description: "Variables", ...json(z.array(VariableSchema)) }, ...errorResponses },
});
const put = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireModeler,
  method: "put",
  path: "/a/definitions/{key}/variables/{name}",
  summary: "Create or replace a process configuration variable (Modeler; secrets Admin)",
  request: { params: NameParams, body: { ...json(PutBody), required: true } },
  responses: { 200: { description: "Variable", ...json(VariableSchema) }, ...errorResponses },
});
const remove = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireModeler,
  method: "delete",
  path: "/a/definitions/{key}/variables/{name}",
  summary: "Delete a process configuration variable (Modeler; secrets Admin)",
  request: { params: NameParams },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

export function registerDefinitionVariables(r: OpenAPIHono<AppEnv>) {
  r.openapi(listPublic, (c) =>
    c.json(listPublicProcessVariables({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(listAll, (c) => c.json(listProcessVariables({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(put, (c) => {
    const input = { ...c.req.valid("param"), ...c.req.valid("json") };
    return c.json(putProcessVariable({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(remove, (c) => {
    deleteProcessVariable({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
}
