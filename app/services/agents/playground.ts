import { callerOf } from "../ai-models/caller";
import { clearanceOf, type Confidentiality, lowerOf } from "../cms/clearance";
import type { TenantCtx } from "../context";
import { UnprocessableError } from "../errors";
import { assertModeler } from "./agents";
import { AgentFailure, runAgent } from "./run-agent";
import { agentOf, requireAgent } from "./store";
import { admitted } from "../admission";

export const runPlayground = admitted(runPlaygroundNow);
/**
 * POST /a/agents/{key}/playground: runs the agent on the inputs given, without an instance (its variables are the
 * inputs); CMS clearance is the lower of the user's and the agent's (confidentiality rule 5). Writes no variable;
 * the tool calls are recorded with no instance. A failing run answers 422 naming the failure type.
 */
async function runPlaygroundNow({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { key: string; inputs: Record<string, unknown> };
}): Promise<{
  outputs: Record<string, unknown>;
  toolCalls: { tool: string; outcome: string; detail: string | null }[];
  clearance: Confidentiality;
}> {
  assertModeler(ctx);
  const agent = agentOf(requireAgent(ctx, input.key));
  const clearance = lowerOf(clearanceOf(ctx.actor), agent.cmsClearance);
  const calls: { tool: string; outcome: string; detail: string | null }[] = [];
  const env = { agent, clearance, instanceId: null, activity: null, variables: () => input.inputs, outputs: {}, calls };
  let outputs: Record<string, unknown>;
  try {
    outputs = await runAgent(ctx, env, callerOf(ctx, "agent-playground"), input.inputs);
  } catch (e) {
    if (e instanceof AgentFailure) throw new UnprocessableError(`The agent failed (${e.type}): ${e.message}`);
    throw e;
  }
  return { outputs, toolCalls: calls, clearance };
}
