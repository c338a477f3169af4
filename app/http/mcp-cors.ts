import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { errorBody } from "./errors/error-body";
import { originAllowed } from "../mcp/origin";

export const MCP_CORS_METHODS = "GET, POST, DELETE, OPTIONS";
/** What a browser MCP client sends: its credential, the tenant, and the Streamable HTTP headers. */
export const MCP_CORS_REQUEST_HEADERS =
  "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id, x-tenant-id";
/** What its script must be able to read: the session id above all (without it no second request can be made). */
export const MCP_CORS_EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";
/** How long a browser may reuse a preflight answer. */
export const MCP_CORS_MAX_AGE_S = 600;

/**
 * CORS for /api/a/mcp, for the origins the DNS-rebinding check admits (localhost on any port and MCP_ALLOWED_ORIGINS)
 * and no other: another origin is refused with 403 before anything else, preflight included. A preflight never carries
 * credentials, so it is answered here, before authentication. The answers name the one calling origin (never `*`) and
 * no Allow-Credentials: the credential travels in the Authorization header the script sets, not in cookies.
 */
export function mcpCors(allowed: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (!originAllowed(origin, allowed))
      return c.json(errorBody(403, `Origin ${origin} is not allowed to call the MCP server`, c.req.path), 403);
    if (c.req.method === "OPTIONS") {
      const headers: Record<string, string> = { allow: MCP_CORS_METHODS };
      if (origin !== undefined) {
        Object.assign(headers, corsHeaders(origin), {
          "access-control-allow-methods": MCP_CORS_METHODS,
          "access-control-allow-headers": MCP_CORS_REQUEST_HEADERS,
          "access-control-max-age": String(MCP_CORS_MAX_AGE_S),
        });
      }
      return c.body(null, 204, headers);
    }
    await next();
    if (origin === undefined) return;
    // The SDK's streaming answers may carry immutable headers: copy the answer once to add ours.
    const res = new Response(c.res.body, c.res);
    for (const [k, v] of Object.entries(corsHeaders(origin))) res.headers.set(k, v);
    res.headers.set("access-control-expose-headers", MCP_CORS_EXPOSED_HEADERS);
    c.res = res;
  };
}

const corsHeaders = (origin: string) => ({ "access-control-allow-origin": origin, vary: "Origin" });
