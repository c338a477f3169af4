import { MCP_TOOLS_PER_SERVER } from "../admin-mcp-servers/limits";
import { serverByName, serversOfTenant, servesTenant } from "../admin-mcp-servers/store";
import { NotFoundError, ServiceUnavailableError } from "../errors";
import { mcpToolName } from "../tools/mcp-remote";
import { assertModeler } from "./agents";
import type { TenantCtx } from "../context";
import type { AgentsCtx } from "./store";

type CatalogueCtx = AgentsCtx & TenantCtx<"mcpServers">;

// What a modeler may put in an agent's `mcpServers`: the servers registered for the tenant and their tools.
/** GET /a/ai/mcp-servers: the registered servers the tenant's agents may list (Modeler); no URL, no header. */
export function listTenantMcpServers({ ctx }: { ctx: CatalogueCtx; input?: undefined }) {
  assertModeler(ctx);
  return serversOfTenant(ctx.platformDb, ctx.tenant.id).map((r) => ({ name: r.name, description: r.description }));
}

/**
 * GET /a/ai/mcp-servers/{name}/tools: the server's tools as discovered now (tools/list, cached briefly), each with the
 * name a model is offered; 404 for a server the tenant may not use, 503 when the server cannot be reached.
 */
export async function listTenantMcpTools({ ctx, input }: { ctx: CatalogueCtx; input: { name: string } }) {
  assertModeler(ctx);
  const row = serverByName(ctx.platformDb, input.name);
  if (!row || !servesTenant(row, ctx.tenant.id)) throw new NotFoundError(`MCP server ${input.name} not found`);
  let tools: Awaited<ReturnType<typeof ctx.mcpServers.toolsOf>>;
  try {
    tools = await ctx.mcpServers.toolsOf(row);
  } catch (e) {
    throw new ServiceUnavailableError(
      `MCP server ${row.name} could not be reached: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const taken = new Set<string>();
  return tools.slice(0, MCP_TOOLS_PER_SERVER).map((t) => ({
    name: t.name,
    description: t.description ?? null,
    offeredAs: mcpToolName(row.name, t.name, taken),
  }));
}
