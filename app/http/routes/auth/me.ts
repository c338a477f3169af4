import { createRoute, z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { requireUser } from "../../middleware/user-auth";
import { me, mySession, myTenants } from "../../../services/auth/me";
import { MeSchema, MyTenantSchema, SessionSchema } from "./schema";

const common = { tags: ["auth"], security: userSecurity, middleware: requireUser };

const meRoute = createRoute({
  ...common,
  method: "get",
  path: "/auth/me",
  summary: "Current user",
  responses: { 200: { description: "Current user", ...json(MeSchema) }, ...errorResponses },
});
const tenantsRoute = createRoute({
  ...common,
  method: "get",
  path: "/auth/me/tenants",
  summary: "Tenants of the current user",
  responses: { 200: { description: "Tenants", ...json(z.array(MyTenantSchema)) }, ...errorResponses },
});
const sessionRoute = createRoute({
  ...common,
  method: "get",
  path: "/auth/me/session",
  summary: "Current session",
  responses: { 200: { description: "Session", ...json(SessionSchema) }, ...errorResponses },
});

export function registerMeRoutes(r: OpenAPIHono<AppEnv>) {
  r.openapi(meRoute, (c) => c.json(me({ ctx: platformCtx(c), input: { claims: c.get("auth").claims } }), 200));
  r.openapi(tenantsRoute, (c) =>
    c.json(myTenants({ ctx: platformCtx(c), input: { claims: c.get("auth").claims } }), 200),
  );
  r.openapi(sessionRoute, (c) =>
    c.json(mySession({ ctx: platformCtx(c), input: { claims: c.get("auth").claims } }), 200),
  );
}
