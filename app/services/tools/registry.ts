import { agentTools } from "./agent-tools";
import type { ToolDescriptor, ToolSurface } from "./descriptor";
import { agentTools as agentAdminTools } from "./mcp/agents";
import { cmsTools } from "./mcp/cms";
import { documentationTools } from "./mcp/documentation";
import { formTools } from "./mcp/forms";
import { knowledgeTools } from "./mcp/knowledge";
import { processTools } from "./mcp/process";
import { runTools } from "./mcp/run";

/**
 * Every tool of the service, MCP's (in the order of the spec's table) and the agents', one list of descriptors each
 * over a service operation. Two adapters expose them: app/mcp/server.ts (the `mcp` ones) and
 * app/services/tools/agent-tool-set.ts (the `agent` ones an agent lists, with its remote MCP servers' tools). A tool
 * is here only once its operation exists.
 */
export const TOOLS: readonly ToolDescriptor[] = [
  ...formTools,
  ...processTools,
  ...agentAdminTools,
  ...knowledgeTools,
  ...cmsTools,
  ...documentationTools,
  ...runTools,
  ...agentTools,
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));
export const toolNamed = (name: string): ToolDescriptor | undefined => byName.get(name);

/** The tools of one surface, in the registry's order. */
export const toolsOf = (surface: ToolSurface): ToolDescriptor[] => TOOLS.filter((t) => t.surface === surface);
