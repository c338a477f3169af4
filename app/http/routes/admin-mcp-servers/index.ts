import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import {
  createMcpServer,
  deleteMcpServer,
  getMcpServer,
  listMcpServers,
  updateMcpServer,
} from "../../../services/admin-mcp-servers/manage";
import { CreateMcpServerBody, McpServerSchema, PatchMcpServerBody } from "./schema";

// /api/admin/* passes requireSuperAdmin in app.ts; the operations check the SUPER_ADMIN again.
const sa = { tags: ["admin: mcp servers"], security: userSecurity };
const one = { 200: { description: "MCP server", ...json(McpServerSchema) }, ...errorResponses };

const list = createRoute({
  ...sa,
  method: "get",
  path: "/admin/mcp-servers",
  summary: "Remote MCP servers agents may use as tool sources (SUPER_ADMIN)",
  responses: { 200: { description: "Servers", ...json(z.array(McpServerSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...sa,
  method: "post",
  path: "/admin/mcp-servers",
  summary: "Register a server; its URL must pass the outbound address policy (400 naming the reason)",
  request: { body: { ...json(CreateMcpServerBody), required: true } },
  responses: { 201: { description: "Registered", ...json(McpServerSchema) }, ...errorResponses },
});
const getOne = createRoute({
  ...sa,
  method: "get",
  path: "/admin/mcp-servers/{id}",
  summary: "One server (the auth header's value is never returned)",
  request: { params: IdParam },
  responses: one,
});
const patch = createRoute({
  ...sa,
  method: "patch",
  path: "/admin/mcp-servers/{id}",
  summary: "Change a server (absent authHeader keeps the stored one, null removes it; the name stays)",
  request: { params: IdParam, body: { ...json(PatchMcpServerBody), required: true } },
  responses: one,
});
const remove = createRoute({
  ...sa,
  method: "delete",
  path: "/admin/mcp-servers/{id}",
  summary: "Remove a server (agents naming it are offered none of its tools any more)",
  request: { params: IdParam },
  responses: { 204: { description: "Removed" }, ...errorResponses },
});

/** /admin/mcp-servers */
export function adminMcpServersRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listMcpServers({ ctx: platformCtx(c) }), 200));
  r.openapi(create, async (c) =>
    c.json(await createMcpServer({ ctx: platformCtx(c), input: c.req.valid("json") }), 201),
  );
  r.openapi(getOne, (c) => c.json(getMcpServer({ ctx: platformCtx(c), input: c.req.valid("param") }), 200));
  r.openapi(patch, async (c) =>
    c.json(
      await updateMcpServer({ ctx: platformCtx(c), input: { ...c.req.valid("param"), ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteMcpServer({ ctx: platformCtx(c), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
