import { createRoute } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { requireUser } from "../../middleware/user-auth";
import { clientIp } from "../../middleware/client-ip";
import { login } from "../../../services/auth/login";
import { refresh } from "../../../services/auth/refresh";
import { logout, selectTenant } from "../../../services/auth/select-tenant";
import { LoginBody, LoginResponseSchema, RefreshBody, SelectTenantBody } from "./schema";

const loginRoute = createRoute({
  method: "post",
  path: "/auth/login",
  tags: ["auth"],
  // Public: no credential is needed (the OpenAPI document says so explicitly).
  security: [],
  summary: "Log in with e-mail and password",
  request: { body: { ...json(LoginBody), required: true } },
  responses: { 200: { description: "Token pair", ...json(LoginResponseSchema) }, ...errorResponses },
});

const refreshRoute = createRoute({
  method: "post",
  path: "/auth/refresh",
  tags: ["auth"],
  // Public: no credential is needed (the OpenAPI document says so explicitly).
  security: [],
  summary: "Rotate the refresh token for a new pair",
  request: { body: { ...json(RefreshBody), required: true } },
  responses: { 200: { description: "New token pair", ...json(LoginResponseSchema) }, ...errorResponses },
});

const selectTenantRoute = createRoute({
  method: "post",
  path: "/auth/select-tenant",
  tags: ["auth"],
  summary: "Select the tenant of the session",
  security: userSecurity,
  middleware: requireUser,
  request: { body: { ...json(SelectTenantBody), required: true } },
  responses: {
    200: { description: "Token pair carrying the tenant", ...json(LoginResponseSchema) },
    ...errorResponses,
  },
});

const logoutRoute = createRoute({
  method: "post",
  path: "/auth/logout",
  tags: ["auth"],
  summary: "End the current session",
  security: userSecurity,
  middleware: requireUser,
  responses: { 204: { description: "Session ended" }, ...errorResponses },
});

export function registerSessionRoutes(r: OpenAPIHono<AppEnv>) {
  r.openapi(loginRoute, async (c) =>
    c.json(
      await login({
        ctx: platformCtx(c),
        input: { ...c.req.valid("json"), ip: clientIp(c), userAgent: c.req.header("user-agent") ?? null },
      }),
      200,
    ),
  );
  r.openapi(refreshRoute, async (c) => c.json(await refresh({ ctx: platformCtx(c), input: c.req.valid("json") }), 200));
  r.openapi(selectTenantRoute, async (c) =>
    c.json(
      await selectTenant({ ctx: platformCtx(c), input: { claims: c.get("auth").claims, ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(logoutRoute, async (c) => {
    logout({ ctx: platformCtx(c), input: { claims: c.get("auth").claims } });
    return c.body(null, 204);
  });
}
