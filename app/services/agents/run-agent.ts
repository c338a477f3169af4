import type { AiCaller } from "../../ai/usage";
import type { TenantCtx } from "../context";
import { ConflictError, PaymentRequiredError } from "../errors";
import type { FailureType } from "../ai-task-failures/failures";
import { finalOutputs, InvalidOutput } from "./outputs";
import { agentPrompt, cutsDetail } from "./prompt-inputs";
import { recordToolCall } from "./tool-log";
import { agentToolSet } from "../tools/agent-tool-set";
import type { AgentRunEnv } from "./run-env";

/** Why an agent run failed, typed for the failure record (docs/ai.md). */
export class AgentFailure extends Error {
  constructor(
    readonly type: FailureType,
    message: string,
  ) {
    super(message);
  }
}

/** A refusal that ends the run: the agent acted for another tenant than the routed one. */
export class FatalRefusal extends Error {}

/** The HTTP answer of the model endpoint behind an SDK error (an APICallError, perhaps wrapped), if it answered. */
function endpointAnswer(e: unknown): { status: number; body: string } | null {
  for (let x = e as Record<string, unknown> | undefined, depth = 0; x && depth < 4; depth++) {
    if (typeof x.statusCode === "number") return { status: x.statusCode, body: String(x.responseBody ?? "") };
    x = (x.lastError ?? x.cause) as Record<string, unknown> | undefined;
  }
  return null;
}

export function classify(e: unknown, timedOut: boolean, fatal: FatalRefusal | null): AgentFailure {
  if (e instanceof AgentFailure) return e;
  if (fatal) return new AgentFailure("TOOL_REFUSED", fatal.message);
  if (timedOut) return new AgentFailure("TIMEOUT", "the model did not finish within the agent's timeout");
  if (e instanceof PaymentRequiredError) return new AgentFailure("QUOTA_EXCEEDED", e.message);
  // The provider's own quota (OpenAI: 429 insufficient_quota) is a quota, a plain rate limit is unavailability.
  const answer = endpointAnswer(e);
  if (answer?.status === 429 && /quota/i.test(answer.body))
    return new AgentFailure("QUOTA_EXCEEDED", `the model endpoint refused: its quota is exhausted (${answer.status})`);
  if (e instanceof InvalidOutput) return new AgentFailure("INVALID_OUTPUT", e.message);
  if (e instanceof ConflictError) return new AgentFailure("MODEL_UNAVAILABLE", e.message);
  const msg = e instanceof Error ? e.message : String(e);
  return new AgentFailure("MODEL_UNAVAILABLE", `the model could not be reached or answered an error: ${msg}`);
}

/**
 * Runs an agent once: its instructions, the inputs, its tools; answers its outputs. Never holds a transaction: the
 * caller awaits this outside any write (the engine's command writes after the step returns). Throws AgentFailure.
 */
export async function runAgent(
  ctx: TenantCtx,
  env: AgentRunEnv,
  caller: AiCaller,
  inputs: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { agent } = env;
  const abort = new AbortController();
  let timedOut = false;
  let fatal: FatalRefusal | null = null;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, agent.limits.timeoutMs);
  const outputsDoc = agent.outputVariables.map(
    (v) => `- ${v.name} (${v.type})${v.description ? `: ${v.description}` : ""}`,
  );
  const system = [
    agent.instructions,
    outputsDoc.length
      ? `Produce these outputs with the set_output tool (or answer a JSON object with them):\n${outputsDoc.join("\n")}`
      : "",
  ]
    .filter(Boolean)
    .join("\n\n");
  const { prompt, cuts } = agentPrompt(inputs);
  // The audit says when the model saw less than the inputs (recorded as a "prompt" entry among the tool calls).
  if (cuts.length)
    recordToolCall(ctx, {
      instanceId: env.instanceId,
      activity: env.activity,
      agentKey: agent.key,
      tool: "prompt",
      args: null,
      outcome: "OK",
      detail: cutsDetail("inputs", cuts),
      durationMs: 0,
    });
  try {
    const r = await ctx.ai.generateWithTools(caller, {
      modelId: agent.modelId,
      system,
      prompt,
      tools: await agentToolSet(ctx, env, (message) => {
        fatal = new FatalRefusal(message);
        abort.abort();
      }),
      maxSteps: agent.limits.maxToolSteps + 1,
      signal: abort.signal,
    });
    if (fatal) throw fatal;
    if (r.finishReason === "tool-calls" && agent.outputVariables.some((v) => !(v.name in env.outputs)))
      throw new AgentFailure(
        "TOOL_STEPS_EXCEEDED",
        `the agent used its ${agent.limits.maxToolSteps} tool steps without finishing`,
      );
    return finalOutputs(agent.outputVariables, env.outputs, r.text);
  } catch (e) {
    throw classify(e, timedOut, fatal);
  } finally {
    clearTimeout(timer);
  }
}
