import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { requireAdmin } from "../../middleware/roles";
import { createApiKey, deleteApiKey, listApiKeys, patchApiKey } from "../../../services/api-keys/manage";

const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(["read", "write"])),
    rateLimitPerMinute: z.number().int(),
    createdAt: z.string(),
    createdBy: z.string().nullable(),
  })
  .openapi("ApiKey");
const CreatedKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: "shown only in this response" }),
}).openapi("CreatedApiKey");
// Scopes are checked by the service so the 400 names the valid values, whatever the client sent.
const CreateBody = z
  .object({
    name: z.string().min(1),
    scopes: z
      .any()
      .optional()
      .openapi({ type: "array", items: { type: "string", enum: ["read", "write"] } }),
    rateLimitPerMinute: z.number().int().min(0).optional(),
  })
  .openapi("CreateApiKeyRequest");
const PatchBody = z
  .object({
    name: z.string().min(1).optional(),
    scopes: z
      .any()
      .optional()
      .openapi({ type: "array", items: { type: "string", enum: ["read", "write"] } }),
    rateLimitPerMinute: z.number().int().min(0).optional(),
  })
  .openapi("PatchApiKeyRequest");
const common = { tags: ["api keys"], security: tenantSecurity, middleware: requireAdmin };

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/api-keys",
  summary: "API keys of the tenant, by prefix (Admin)",
  responses: { 200: { description: "Keys", ...json(z.array(ApiKeySchema)) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/a/api-keys",
  summary: "Create an API key (Admin)",
  request: { body: { ...json(CreateBody), required: true } },
  responses: { 201: { description: "Created; the key is shown once", ...json(CreatedKeySchema) }, ...errorResponses },
});
const patch = createRoute({
  ...common,
  method: "patch",
  path: "/a/api-keys/{id}",
  summary: "Change name, scopes or limit (Admin)",
  request: { params: IdParam, body: { ...json(PatchBody), required: true } },
  responses: { 200: { description: "Updated", ...json(ApiKeySchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/a/api-keys/{id}",
  summary: "Delete an API key (Admin)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/api-keys */
export function apiKeysRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listApiKeys({ ctx: c.get("ctx") }), 200));
  r.openapi(create, (c) => c.json(createApiKey({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(patch, (c) =>
    c.json(patchApiKey({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  r.openapi(remove, (c) => {
    deleteApiKey({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
