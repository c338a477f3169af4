import type { ToolDescriptor } from "./tool";
import { cmsTools } from "./tools/cms";
import { formTools } from "./tools/forms";
import { knowledgeTools } from "./tools/knowledge";
import { processTools } from "./tools/process";
import { runTools } from "./tools/run";

/**
 * Every MCP tool, in the order of the spec's table. A tool is listed only once its service exists: a tool either works
 * or is not here (no stubs).
 *
 * TO WIRE after the agents and AI-assist branches merge (their services are being built in parallel):
 * - after svc_process_deploy: svc_process_validate (ctx.processRuntime.validate, warns on a missing diagram section)
 * - after svc_ai_model_list: svc_agent_list, svc_agent_create, svc_agent_attach_to_step, svc_agent_suggest_knowledge
 * - after the CMS tools: svc_process_doc_get, svc_process_doc_propose (process documentation service and routes)
 * - last: svc_run_why_failed (AI task failures of an instance by business key)
 */
export const TOOLS: readonly ToolDescriptor[] = [
  ...formTools,
  ...processTools,
  ...knowledgeTools,
  ...cmsTools,
  ...runTools,
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));
export const toolNamed = (name: string): ToolDescriptor | undefined => byName.get(name);
