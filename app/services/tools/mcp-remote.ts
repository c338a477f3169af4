import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type McpServerRow, serverByName, servesTenant } from "../admin-mcp-servers/store";
import { MCP_RESULT_MAX_CHARS, MCP_TOOLS_PER_SERVER } from "../admin-mcp-servers/limits";
import type { AgentRunEnv } from "../agents/run-env";
import { recordToolCall } from "../agents/tool-log";
import type { TenantCtx } from "../context";
import { mayCallMcpTool } from "./authorise";

/** A tool of a registered MCP server as an agent's run offers it to the model. */
export interface RemoteTool {
  /** The name the model sees: `mcp_<server>_<tool>`, within the model APIs' `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  run(input: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

const MAX_NAME = 64;

/**
 * The namespaced name of a server's tool: characters the model APIs refuse become `_`; a name too long, or equal to
 * one already offered once sanitized, is cut and ends with a short hash of the server and tool, so it stays unique
 * and the same from run to run.
 */
export function mcpToolName(server: string, tool: string, taken: Set<string>): string {
  let name = `mcp_${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length > MAX_NAME || taken.has(name)) {
    const hash = Bun.hash(`${server}\u0000${tool}`).toString(16).padStart(8, "0").slice(0, 8);
    name = `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
  }
  taken.add(name);
  return name;
}

/** What the model reads of a result: the text parts joined, the structured content as it came. */
function resultFor(r: CallToolResult): { content: string; structuredContent?: unknown } {
  const parts = r.content.map((c) => {
    if (c.type === "text") return c.text;
    if (c.type === "resource") return "text" in c.resource ? c.resource.text : `[resource ${c.resource.uri}]`;
    if (c.type === "resource_link") return `[resource ${c.uri}]`;
    return `[${c.type} content omitted]`;
  });
  const out: { content: string; structuredContent?: unknown } = { content: parts.join("\n") };
  if (r.structuredContent) out.structuredContent = r.structuredContent;
  return out;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function callRemote(
  ctx: TenantCtx,
  row: McpServerRow,
  tool: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
) {
  let r: CallToolResult;
  try {
    r = await ctx.mcpServers.call(row, tool, args, signal);
  } catch (e) {
    throw new Error(`MCP server '${row.name}' could not run ${tool}: ${messageOf(e)}`);
  }
  const result = resultFor(r);
  if (r.isError) throw new Error(`MCP tool ${tool} reported an error: ${result.content.slice(0, 2000)}`);
  const size = JSON.stringify(result).length;
  if (size > MCP_RESULT_MAX_CHARS)
    throw new Error(
      `the result of MCP tool ${tool} (${size} characters) is larger than the limit of ${MCP_RESULT_MAX_CHARS}`,
    );
  return result;
}

/**
 * The tools of the MCP servers the agent's configuration lists, as this run may call them (authorise.ts): discovered
 * with tools/list (cached briefly by the server's port). A server not available to the tenant or not answering offers
 * nothing and leaves an entry in the tool-call audit (tool `mcp_<server>`), so the run goes on with its other tools.
 */
export async function remoteToolsOf(ctx: TenantCtx, env: AgentRunEnv, taken: Set<string>): Promise<RemoteTool[]> {
  const note = (server: string, outcome: "ERROR" | "REFUSED", detail: string) => {
    env.calls?.push({ tool: `mcp_${server}`, outcome, detail });
    recordToolCall(ctx, {
      instanceId: env.instanceId,
      activity: env.activity,
      agentKey: env.agent.key,
      tool: `mcp_${server}`,
      args: null,
      outcome,
      detail,
      durationMs: 0,
    });
  };
  // Every server is asked at once: a slow or hanging one costs the run its timeout once, not once per server.
  const found = await Promise.all(
    env.agent.mcpServers.map(async (use) => {
      const row = serverByName(ctx.platformDb, use.server);
      if (!row || !servesTenant(row, ctx.tenant.id)) {
        note(use.server, "REFUSED", `MCP server '${use.server}' is not available to this tenant`);
        return null;
      }
      try {
        return { row, tools: await ctx.mcpServers.toolsOf(row) };
      } catch (e) {
        note(use.server, "ERROR", `tools/list of MCP server '${row.name}' failed: ${messageOf(e)}`);
        return null;
      }
    }),
  );
  const out: RemoteTool[] = [];
  for (const { row, tools } of found.filter((f) => f !== null)) {
    for (const t of tools.slice(0, MCP_TOOLS_PER_SERVER)) {
      if (!mayCallMcpTool(env, ctx.tenant.id, row, t.name)) continue;
      out.push({
        name: mcpToolName(row.name, t.name, taken),
        description: `${(t.description ?? t.title ?? t.name).slice(0, 1000)} (tool ${t.name} of MCP server ${row.name})`,
        inputSchema: t.inputSchema as Record<string, unknown>,
        run: (input, signal) => callRemote(ctx, row, t.name, input, signal),
      });
    }
  }
  return out;
}
