import { type AiTaskFailure, recordAiFailure } from "../ai-task-failures/failures";
import type { TenantCtx } from "../context";
import { AgentFailure, runAgent } from "./run-agent";
import { agentOf, findAgentRow } from "./store";

/** An agent step as an engine reaches it: where it is, and the step's variables (the engine's session). */
export interface AgentStepInput {
  engine: "BPMN" | "CMMN";
  agentKey: string;
  processKey: string;
  instanceId: string;
  businessKey: string | null;
  activity: string;
  startedBy: string | null;
  variables(): Record<string, unknown>;
}

/** The error an engine sees when the step failed; its message says why (the start's 422 answer carries it). */
export class AgentStepFailed extends Error {
  constructor(readonly failure: AiTaskFailure) {
    super(
      `AI agent '${failure.agentKey}' failed (${failure.failureType}, attempt ${failure.attemptCount}): ${failure.reason}`,
    );
  }
}

/**
 * Runs the agent of a step with the agent as actor on channel AGENT, and answers its outputs (the step's variables).
 * Called by the engines while their command computes, outside any transaction, once per command run (engine/once.ts);
 * the command then writes the variables with everything else it changed, or nothing when this throws. A failure is
 * recorded (one row per step) before it is thrown, so it survives the command's rollback.
 */
export async function runAgentStep({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: AgentStepInput;
}): Promise<Record<string, unknown>> {
  const step = {
    engine: input.engine,
    processKey: input.processKey,
    instanceId: input.instanceId,
    businessKey: input.businessKey,
    activity: input.activity,
    agentKey: input.agentKey,
    startedBy: input.startedBy,
  };
  try {
    const row = findAgentRow(ctx.platformDb, ctx.tenant.id, input.agentKey);
    if (!row) throw new AgentFailure("AGENT_NOT_FOUND", `no agent '${input.agentKey}' exists for this tenant`);
    const agent = agentOf(row);
    // An agent of a process runs only there (attachments are checked too, but a model may name any agent).
    if (agent.processKey && agent.processKey !== input.processKey)
      throw new AgentFailure(
        "AGENT_NOT_IN_PROCESS",
        `agent '${agent.key}' belongs to process ${agent.processKey}, not to ${input.processKey}`,
      );
    const env = {
      agent,
      clearance: agent.cmsClearance,
      instanceId: input.instanceId,
      activity: input.activity,
      variables: input.variables,
      outputs: {},
    };
    const caller = {
      tenantId: ctx.tenant.id,
      kind: "SYSTEM" as const,
      userId: null,
      apiKeyId: null,
      feature: "agent-step",
    };
    return await runAgent(ctx, env, caller, input.variables());
  } catch (e) {
    const f =
      e instanceof AgentFailure ? e : new AgentFailure("MODEL_UNAVAILABLE", e instanceof Error ? e.message : String(e));
    throw new AgentStepFailed(recordAiFailure(ctx, step, { type: f.type, reason: f.message }));
  }
}
