import { jsonSchema, type ModelMessage, tool, type ToolSet } from "ai";
import type { AgentLoopTool } from "../../../../engine/bpmn";
import type { TenantCtx } from "../../context";
import { type FatalRefusal, toolSet } from "../run-agent";
import type { AgentRunEnv } from "../run-env";

/** The JSON schema of an activity tool's arguments: its `fromAi(...)` input mappings, all required. */
export function argumentsSchema(t: AgentLoopTool) {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const p of t.params)
    properties[p.name] = {
      type: p.type,
      ...(p.description ? { description: p.description } : {}),
      ...(p.type === "array" ? { items: {} } : {}),
    };
  return { type: "object", properties, required: t.params.map((p) => p.name), additionalProperties: false };
}

/**
 * Every tool a loop's model is offered, assembled in one place: the agent's own tools through the agent adapter of
 * the tool registry (run-agent.ts `toolSet`: authorised, recorded and run there; whatever that set gains, the loop
 * gains), and one tool per activity of the ad-hoc subprocess. Activity tools have no `execute`: the model's calls of
 * them come back to the loop, which starts the activities. An activity named like an agent tool hides it.
 */
export function loopToolSet(
  ctx: TenantCtx,
  env: AgentRunEnv,
  activities: AgentLoopTool[],
  onFatal: (e: FatalRefusal) => void,
): ToolSet {
  const set: ToolSet = { ...toolSet(ctx, env, onFatal) };
  for (const a of activities)
    set[a.name] = tool({
      title: a.title,
      description: a.description,
      inputSchema: jsonSchema<Record<string, unknown>>(argumentsSchema(a) as never),
    });
  return set;
}

/** A tool result as the model reads it in the conversation. */
export const toolResultMessage = (callId: string, tool: string, ok: boolean, value: unknown): ModelMessage => ({
  role: "tool",
  content: [
    {
      type: "tool-result",
      toolCallId: callId,
      toolName: tool,
      output: ok
        ? { type: "json", value: (value ?? null) as never }
        : { type: "error-text", value: String((value as { error?: string })?.error ?? value) },
    },
  ],
});
