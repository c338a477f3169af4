import { type McpServerRow, servesTenant } from "../admin-mcp-servers/store";
import type { AgentRunEnv } from "../agents/run-env";
import { type Actor, isAdmin } from "../context";
import type { ToolDescriptor } from "./descriptor";

/** Who is calling a tool: a person or key over MCP, or an agent in its run. */
export type ToolCaller = { actor: Actor } | { agent: AgentRunEnv };

/**
 * The one rule of who may call which tool. MCP tools: a tenant Admin or a SUPER_ADMIN (spec rule 6; an ordinary user
 * reaches none). Agent tools: an agent whose configuration lists the tool. What the tool then reads is bounded by the
 * operation it calls (the CMS at the agent's clearance, the routed tenant only).
 */
export function mayCall(tool: ToolDescriptor, caller: ToolCaller): boolean {
  if ("agent" in caller) return tool.surface === "agent" && caller.agent.agent.tools.includes(tool.name as never);
  return tool.surface === "mcp" && mayUseMcpTools(caller.actor);
}

/** Whether the actor may use MCP's tools at all (tools/list answers none otherwise). */
export const mayUseMcpTools = (actor: Actor) => isAdmin(actor);

/**
 * The tools of a registered MCP server an agent is offered, in the run's tenant: none unless the agent's
 * configuration lists the server and the server is enabled and allowed for that tenant (a global agent runs in many
 * tenants, so this is asked at each run); then the tools its configuration names, or all of them when it names none.
 */
export function mayCallMcpTool(env: AgentRunEnv, tenantId: string, server: McpServerRow, tool: string): boolean {
  const use = env.agent.mcpServers.find((u) => u.server === server.name);
  return !!use && servesTenant(server, tenantId) && (use.tools === null || use.tools.includes(tool));
}
