import { jsonSchema, type ModelMessage, tool, type ToolSet } from "ai";
import type { AgentLoopTool } from "../../../../engine/bpmn";
import type { TenantCtx } from "../../context";
import { agentToolSet, type OnFatalRefusal } from "../../tools/agent-tool-set";
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

const typeOk: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};

/** Why the arguments of a call do not fit the activity's parameters, or null when they do. */
export function argumentsProblem(t: AgentLoopTool, value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `the arguments of ${t.name} must be an object`;
  const args = value as Record<string, unknown>;
  for (const p of t.params) {
    if (args[p.name] === undefined || args[p.name] === null) return `${t.name}: argument '${p.name}' is required`;
    if (!typeOk[p.type]?.(args[p.name])) return `${t.name}: argument '${p.name}' must be of type ${p.type}`;
  }
  const unknown = Object.keys(args).filter((k) => !t.params.some((p) => p.name === k));
  return unknown.length ? `${t.name} takes no argument ${unknown.map((k) => `'${k}'`).join(", ")}` : null;
}

/**
 * Every tool a loop's model is offered, assembled in one place: the agent's own tools through the agent adapter of
 * the tool registry (tools/agent-tool-set.ts `agentToolSet`: the built-in tools and the MCP servers' tools, authorised,
 * recorded and run there; whatever that set gains, the loop gains), and one tool per activity of the ad-hoc subprocess. Activity tools have no `execute`: the model's calls of
 * them come back to the loop, which starts the activities. An activity named like an agent tool hides it.
 */
export async function loopToolSet(
  ctx: TenantCtx,
  env: AgentRunEnv,
  activities: AgentLoopTool[],
  onFatal: OnFatalRefusal,
): Promise<ToolSet> {
  const set: ToolSet = { ...(await agentToolSet(ctx, env, onFatal)) };
  for (const a of activities)
    set[a.name] = tool({
      title: a.title,
      description: a.description,
      // Arguments its parameters refuse make an invalid call: the SDK tells the model, the activity never starts.
      inputSchema: jsonSchema<Record<string, unknown>>(argumentsSchema(a) as never, {
        validate: (value) => {
          const problem = argumentsProblem(a, value);
          return problem
            ? { success: false, error: new Error(problem) }
            : { success: true, value: value as Record<string, unknown> };
        },
      }),
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
