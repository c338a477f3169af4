import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv, HttpDeps } from "./env";
import { handleError } from "./errors/handle-error";
import { errorBody } from "./errors/error-body";
import { validationHook } from "./router";
import { tenantAuth } from "./middleware/tenant-auth";
import { clientIpResolver } from "./middleware/client-ip";
import { requestBodyLimits } from "./middleware/body-limit";
import { requireSuperAdmin } from "./middleware/user-auth";
import { allRouters } from "./routes";
import { observeRequest, requestIdOf } from "./middleware/access-log";
import { registerOpsRoutes } from "./ops-routes";
import { registerApiDocs } from "./api-docs";
import { registerMcp } from "./mcp-route";
import { registerConsole } from "./console-routes";
import { securityHeaders } from "./middleware/security-headers";

/** Builds the whole HTTP application from what it needs of the platform; no listening here (see serve.ts). */
export function createApp(deps: HttpDeps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
  });

  const resolveClientIp = clientIpResolver(deps.trustProxy);
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("requestId", requestIdOf(c.req.header("x-request-id")));
    c.set("clientIp", resolveClientIp(c));
    await next();
  });
  app.use("*", observeRequest);
  app.use("*", securityHeaders);
  app.onError(handleError);
  app.notFound((c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`, c.req.path), 404));

  registerOpsRoutes(app);
  app.use("/api/*", requestBodyLimits);
  // Before the tenant middleware: /a/mcp authenticates with HTTP Basic and X-Tenant-ID of its own.
  registerMcp(app, deps);
  app.use("/api/admin/*", requireSuperAdmin);
  app.use("/api/a/*", tenantAuth);

  for (const r of allRouters()) app.route("/api", r);

  registerApiDocs(app, {
    openapi: "3.1.0",
    info: {
      title: "Process Management Service API",
      version: "0.1.0",
      description: "Multi-tenant BPMN, CMMN and DMN platform.",
    },
    servers: [{ url: "/", description: "this server (paths include /api)" }],
  });
  registerConsole(app);
  return app;
}

export type App = ReturnType<typeof createApp>;
