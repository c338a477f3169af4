import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv, HttpDeps } from "./env";
import { errorBody } from "./errors/error-body";
import { BasicAuthenticator } from "../services/auth/basic";
import { UnauthorizedError } from "../services/errors";
import { McpSessions } from "../mcp/sessions";
import { mcpCors } from "./mcp-cors";
import { documentMcp } from "./mcp-openapi";

export const MCP_PATH = "/api/a/mcp";
/** The challenge every 401 of /a/mcp carries (spec, Tenant selection rule 4). */
export const MCP_CHALLENGE = 'Basic realm="svc-mcp"';

/** The JSON-RPC body, read once (the body-limit middleware may have read it already; Hono keeps it). */
async function bodyOf(c: Context<AppEnv>): Promise<{ ok: true; body: unknown } | { ok: false }> {
  if (c.req.method !== "POST") return { ok: true, body: undefined };
  try {
    return { ok: true, body: await c.req.json() };
  } catch {
    return { ok: false };
  }
}

/**
 * /api/a/mcp: the MCP server over Streamable HTTP (POST requests, GET listening stream, DELETE ends a session),
 * authenticated here by HTTP Basic with X-Tenant-ID (not by the tenant middleware, which it precedes). With
 * MCP_SERVER_ENABLED=false the path answers 404 like any unknown route, before any authentication.
 */
export function registerMcp(app: OpenAPIHono<AppEnv>, deps: HttpDeps): McpSessions | null {
  const { ports } = deps;
  if (!ports.settings.mcpEnabled) {
    app.all(MCP_PATH, (c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`, c.req.path), 404));
    return null;
  }
  const sessions = new McpSessions({ withTenantCtx: deps.withTenantCtx, log: ports.log }, deps.clock);
  const basic = new BasicAuthenticator(deps.clock);
  documentMcp(app);
  // The origin check (403 for a foreign browser origin) and CORS come first; preflights end there.
  app.use(MCP_PATH, mcpCors(ports.settings.mcpAllowedOrigins));
  app.all(MCP_PATH, async (c) => {
    const path = c.req.path;
    let identity: Awaited<ReturnType<BasicAuthenticator["authenticate"]>>;
    try {
      const ctx = { ...ports, actor: null, channel: "MCP" as const, requestId: c.get("requestId"), clock: deps.clock };
      identity = await basic.authenticate(ctx, {
        authorization: c.req.header("authorization"),
        tenantSlug: c.req.header("x-tenant-id"),
        ip: c.get("clientIp"),
      });
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
      return c.json(errorBody(401, e.message, path), 401, { "WWW-Authenticate": MCP_CHALLENGE });
    }
    const body = await bodyOf(c);
    if (!body.ok)
      return c.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: invalid JSON" }, id: null }, 400);
    return sessions.handle(c.req.raw, identity, body.body);
  });
  return sessions;
}
