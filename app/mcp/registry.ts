import type { ToolDescriptor } from "./tool";
import { agentTools } from "./tools/agents";
import { cmsTools } from "./tools/cms";
import { documentationTools } from "./tools/documentation";
import { formTools } from "./tools/forms";
import { knowledgeTools } from "./tools/knowledge";
import { processTools } from "./tools/process";
import { runTools } from "./tools/run";

/**
 * Every MCP tool, in the order of the spec's table. A tool is listed only once its service exists: a tool either works
 * or is not here (no stubs). Each group's shapes come from the service folder the REST route also uses.
 */
export const TOOLS: readonly ToolDescriptor[] = [
  ...formTools,
  ...processTools,
  ...agentTools,
  ...knowledgeTools,
  ...cmsTools,
  ...documentationTools,
  ...runTools,
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));
export const toolNamed = (name: string): ToolDescriptor | undefined => byName.get(name);
