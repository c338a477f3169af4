import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { ErrorSchema } from "./errors/openapi-responses";

const JsonRpc = z
  .object({
    jsonrpc: z.literal("2.0"),
    method: z.string().optional(),
    id: z.union([z.string(), z.number()]).optional(),
  })
  .passthrough()
  .openapi("McpJsonRpcMessage", { description: "A JSON-RPC 2.0 message of the Model Context Protocol" });

const headers = [
  {
    name: "X-Tenant-ID",
    in: "header" as const,
    required: false,
    description: "The tenant's slug; required unless the user belongs to exactly one tenant",
    schema: { type: "string" as const },
  },
  {
    name: "Mcp-Session-Id",
    in: "header" as const,
    required: false,
    description: "The session the initialize answer named; absent only on initialize",
    schema: { type: "string" as const },
  },
  {
    name: "MCP-Protocol-Version",
    in: "header" as const,
    required: false,
    description: "The protocol version negotiated at initialize",
    schema: { type: "string" as const },
  },
];

const err = (description: string) => ({ description, content: { "application/json": { schema: ErrorSchema } } });
const common = {
  tags: ["mcp"],
  security: [{ basicAuth: [] }],
  parameters: headers,
};
const AUTH =
  "MCP Streamable HTTP endpoint (protocol 2025-06-18; the tools are listed by tools/list). Authenticated by HTTP " +
  "Basic with a platform user's e-mail and password, the tenant chosen by X-Tenant-ID; a 401 carries " +
  '`WWW-Authenticate: Basic realm="svc-mcp"`. Browser origins other than localhost and MCP_ALLOWED_ORIGINS are ' +
  "refused with 403; allowed ones get CORS answers (preflight without credentials).";

/**
 * /a/mcp in /v3/api-docs. The route itself is not a zod route (the SDK's transport reads the raw request and streams
 * its answer), so its three operations are declared here by hand, with the Basic scheme they use.
 */
export function documentMcp(app: OpenAPIHono<AppEnv>): void {
  const r = app.openAPIRegistry;
  r.registerComponent("securitySchemes", "basicAuth", { type: "http", scheme: "basic" });
  r.registerPath({
    ...common,
    method: "post",
    path: "/api/a/mcp",
    summary: "Send a JSON-RPC request, notification or response (initialize opens a session)",
    description: AUTH,
    request: { body: { required: true, content: { "application/json": { schema: JsonRpc } } } },
    responses: {
      200: {
        description: "The JSON-RPC answer, as JSON or as an event stream (per the request's Accept)",
        headers: { "Mcp-Session-Id": { description: "Set on the initialize answer", schema: { type: "string" } } },
        content: { "application/json": { schema: JsonRpc }, "text/event-stream": { schema: { type: "string" } } },
      },
      202: { description: "A notification or response accepted" },
      400: err("Not JSON-RPC, or no session and not an initialize request"),
      401: err("Not authenticated (Basic challenge)"),
      403: err("Origin not allowed"),
      404: err("Session not found: the client must initialize a new one"),
    },
  });
  r.registerPath({
    ...common,
    method: "get",
    path: "/api/a/mcp",
    summary: "Open the session's event stream for server-to-client messages",
    description: AUTH,
    responses: {
      200: { description: "The event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
      400: err("No session"),
      401: err("Not authenticated (Basic challenge)"),
      403: err("Origin not allowed"),
      404: err("Session not found"),
      405: err("Event stream not offered"),
    },
  });
  r.registerPath({
    ...common,
    method: "delete",
    path: "/api/a/mcp",
    summary: "End the session",
    description: AUTH,
    responses: {
      200: { description: "Session ended" },
      401: err("Not authenticated (Basic challenge)"),
      403: err("Origin not allowed"),
      404: err("Session not found"),
    },
  });
}
