import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  updateConnection,
} from "../../../services/admin-sso/connections";

const ConnectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    scopes: z.array(z.string()),
    allowedDomains: z.array(z.string()),
    autoProvision: z.boolean(),
    trustEmailClaim: z.boolean(),
    enabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("SsoConnection");
const fields = {
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lower-case letters, digits and -"),
  issuer: z.string().url().max(500),
  clientId: z.string().min(1).max(500),
  clientSecret: z.string().min(1).max(2000).openapi({ description: "write-only; never returned" }),
  scopes: z.array(z.string().regex(/^[\x21-\x7e]+$/)).max(20),
  allowedDomains: z
    .array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, "must be a domain"))
    .min(1)
    .max(100),
  autoProvision: z.boolean(),
  trustEmailClaim: z.boolean().openapi({
    description:
      "accept the e-mail claim when the provider sends no email_verified (Microsoft Entra ID); an explicit " +
      "email_verified or xms_edov of false is still refused. Default false",
  }),
  enabled: z.boolean(),
};
const CreateBody = z
  .object({
    ...fields,
    scopes: fields.scopes.default(["email"]),
    autoProvision: fields.autoProvision.default(false),
    trustEmailClaim: fields.trustEmailClaim.default(false),
    enabled: fields.enabled.default(true),
  })
  .strict()
  .openapi("CreateSsoConnectionRequest");
const PatchBody = z.object(fields).partial().strict().openapi("PatchSsoConnectionRequest");

// /api/admin/* passes requireSuperAdmin in app.ts; the operations check the SUPER_ADMIN again.
const sa = { tags: ["admin: sso"], security: userSecurity };
const one = { 200: { description: "Connection", ...json(ConnectionSchema) }, ...errorResponses };

const list = createRoute({
  ...sa,
  method: "get",
  path: "/admin/sso",
  summary: "Single sign-on connections (SUPER_ADMIN)",
  responses: { 200: { description: "Connections", ...json(z.array(ConnectionSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...sa,
  method: "post",
  path: "/admin/sso",
  summary: "Create a connection; discovery from the issuer first (400 naming the problem)",
  request: { body: { ...json(CreateBody), required: true } },
  responses: { 201: { description: "Created", ...json(ConnectionSchema) }, ...errorResponses },
});
const getOne = createRoute({
  ...sa,
  method: "get",
  path: "/admin/sso/{id}",
  summary: "One connection",
  request: { params: IdParam },
  responses: one,
});
const patch = createRoute({
  ...sa,
  method: "patch",
  path: "/admin/sso/{id}",
  summary: "Change a connection (absent clientSecret keeps the stored one)",
  request: { params: IdParam, body: { ...json(PatchBody), required: true } },
  responses: one,
});
const remove = createRoute({
  ...sa,
  method: "delete",
  path: "/admin/sso/{id}",
  summary: "Delete a connection",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /admin/sso */
export function adminSsoRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listConnections({ ctx: platformCtx(c) }), 200));
  r.openapi(create, async (c) =>
    c.json(await createConnection({ ctx: platformCtx(c), input: c.req.valid("json") }), 201),
  );
  r.openapi(getOne, (c) => c.json(getConnection({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(patch, async (c) =>
    c.json(
      await updateConnection({ ctx: platformCtx(c), input: { ...c.req.valid("param"), ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteConnection({ ctx: platformCtx(c), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
