import type { ModelMessage } from "ai";
import type { AgentTurnAnswer, AgentTurnRequest, LoopEntry } from "../../../../engine/bpmn";
import { recordAiFailure } from "../../ai-task-failures/failures";
import type { TenantCtx } from "../../context";
import { finalOutputs } from "../outputs";
import { agentPrompt } from "../prompt-inputs";
import { AgentFailure, classify, FatalRefusal } from "../run-agent";
import type { AgentRunEnv } from "../run-env";
import { AgentStepFailed } from "../run-step";
import { type Agent, agentOf, findAgentRow } from "../store";
import { recordToolCall } from "../tool-log";
import { loopToolSet, toolResultMessage } from "./tool-set";
import { storedTurn, storeTurn } from "./turn-store";

type ResultEntry = Extract<LoopEntry, { kind: "result" }>;

/** The conversation so far as the model reads it: each turn's messages, each tool activity's result. */
function conversation(entries: LoopEntry[]): ModelMessage[] {
  return entries.flatMap((e) =>
    e.kind === "model" ? (e.messages as ModelMessage[]) : [toolResultMessage(e.callId, e.tool, e.ok, e.value)],
  );
}

/** The failing step an AI task failure of the loop names: the ad-hoc subprocess. */
const stepOf = (input: AgentTurnRequest) => ({
  engine: "BPMN" as const,
  processKey: input.definitionKey,
  instanceId: input.instanceId,
  businessKey: input.businessKey,
  activity: input.subProcessId,
  agentKey: input.state.agent,
  startedBy: input.startedBy,
});

function loadAgent(ctx: TenantCtx, req: AgentTurnRequest): Agent {
  const row = findAgentRow(ctx.platformDb, ctx.tenant.id, req.state.agent);
  if (!row) throw new AgentFailure("AGENT_NOT_FOUND", `no agent '${req.state.agent}' exists for this tenant`);
  const agent = agentOf(row);
  if (agent.processKey && agent.processKey !== req.definitionKey)
    throw new AgentFailure(
      "AGENT_NOT_IN_PROCESS",
      `agent '${agent.key}' belongs to process ${agent.processKey}, not to ${req.definitionKey}`,
    );
  return agent;
}

function systemOf(agent: Agent): string {
  const outs = agent.outputVariables.map((v) => `- ${v.name} (${v.type})${v.description ? `: ${v.description}` : ""}`);
  return [
    agent.instructions,
    "Call the tools you need (several at once when they are independent). When you are done, answer without a tool call.",
    outs.length
      ? `Your final answer is a JSON object with these outputs (or set them with set_output):\n${outs.join("\n")}`
      : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * One turn of an agent loop over an ad-hoc subprocess: the model is asked (again while it only calls the agent's own
 * tools, which run at once) until it calls activities of the subprocess, which the engine then starts, or answers
 * without a tool call, which ends the loop with the agent's outputs. A turn already answered (before a restart, or in
 * a command computed again) is answered from its record: the model is never asked twice for one turn. The limits of
 * the agent (model calls, tool calls, tokens, wall time) end the loop as an AI task failure of that type.
 */
export async function runLoopTurn({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: AgentTurnRequest;
}): Promise<AgentTurnAnswer> {
  const st = input.state;
  const step = stepOf(input);
  const abort = new AbortController();
  let fatal: FatalRefusal | null = null;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const stored = storedTurn(ctx, input.scopeExecutionId, st.turn);
    if (stored) return stored;
    const agent = loadAgent(ctx, input);
    const limits = agent.limits;
    if (ctx.clock.now() - st.startedAt > limits.maxWallMs)
      throw new AgentFailure("TIMEOUT", `the agent loop ran past its wall time of ${limits.maxWallMs} ms`);
    timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, limits.timeoutMs);
    const lastModel = st.entries.findLastIndex((e) => e.kind === "model");
    const results = st.entries.slice(lastModel + 1).filter((e): e is ResultEntry => e.kind === "result");
    const env: AgentRunEnv = {
      agent,
      clearance: agent.cmsClearance,
      instanceId: input.instanceId,
      activity: input.subProcessId,
      variables: input.variables,
      outputs: { ...st.outputs },
      turn: st.turn,
    };
    const tools = await loopToolSet(ctx, env, input.tools, (message) => {
      fatal = new FatalRefusal(message);
      abort.abort();
    });
    const byName = new Map(input.tools.map((t) => [t.name, t]));
    const messages = conversation(st.entries);
    const added: ModelMessage[] = [];
    if (st.turn === 0) added.push({ role: "user", content: agentPrompt(input.variables()).prompt });
    const spent = { ...st.spent };
    const caller = {
      tenantId: ctx.tenant.id,
      kind: "SYSTEM" as const,
      userId: null,
      apiKeyId: null,
      feature: "agent-loop",
    };
    const t0 = performance.now();
    let tokens = 0;
    for (;;) {
      if (spent.modelCalls >= limits.maxModelCalls)
        throw new AgentFailure("MODEL_CALLS_EXCEEDED", `the agent loop used its ${limits.maxModelCalls} model calls`);
      if (spent.tokens >= limits.maxTokens)
        throw new AgentFailure(
          "TOKENS_EXCEEDED",
          `the agent loop used ${spent.tokens} of its ${limits.maxTokens} tokens`,
        );
      const askedAt = ctx.clock.now();
      const r = await ctx.ai.generateTurn(caller, {
        modelId: agent.modelId,
        system: systemOf(agent),
        messages: [...messages, ...added],
        tools,
        signal: abort.signal,
      });
      if (fatal) throw fatal;
      const used = r.usage.inputTokens + r.usage.outputTokens;
      spent.modelCalls++;
      spent.tokens += used;
      tokens += used;
      added.push(...r.messages);
      const activityCalls = r.toolCalls.filter((c) => !c.invalid && byName.has(c.name));
      // A sequential subprocess runs one activity at a time: the calls past the first are refused, and told.
      if (input.sequential)
        for (const c of activityCalls.splice(1)) {
          const why = `${input.subProcessId} runs one activity at a time: call ${c.name} again once ${activityCalls[0].name} answered`;
          added.push(toolResultMessage(c.id, c.name, false, { error: why }));
          c.invalid = why;
        }
      recordToolCall(ctx, {
        instanceId: input.instanceId,
        activity: input.subProcessId,
        agentKey: agent.key,
        tool: "model",
        args: null,
        outcome: "OK",
        detail: r.toolCalls.length ? `called ${r.toolCalls.map((c) => c.name).join(", ")}` : "answered",
        durationMs: r.durationMs,
        turn: st.turn,
        tokens: used,
        at: askedAt,
      });
      // Calls the agent may not make (a tool it was not offered, arguments its schema refuses): told to the model.
      for (const c of r.toolCalls.filter((x) => x.invalid))
        recordToolCall(ctx, {
          instanceId: input.instanceId,
          activity: input.subProcessId,
          agentKey: agent.key,
          tool: c.name,
          args: c.input,
          outcome: "REFUSED",
          detail: c.invalid,
          durationMs: 0,
          turn: st.turn,
        });
      spent.toolCalls += r.toolCalls.length;
      if (spent.toolCalls > limits.maxToolCalls)
        throw new AgentFailure(
          "TOOL_CALLS_EXCEEDED",
          `the agent loop asked more than its ${limits.maxToolCalls} tool calls`,
        );
      if (spent.tokens > limits.maxTokens)
        throw new AgentFailure(
          "TOKENS_EXCEEDED",
          `the agent loop used ${spent.tokens} of its ${limits.maxTokens} tokens`,
        );
      const answer: AgentTurnAnswer = {
        messages: added,
        calls: activityCalls.map((c) => ({ callId: c.id, tool: c.name, args: c.input ?? {} })),
        outputs: env.outputs,
        spent,
        deadlineAt: st.startedAt + limits.maxWallMs,
      };
      if (!r.toolCalls.length) answer.final = finalOutputs(agent.outputVariables, env.outputs, r.text);
      if (answer.final || answer.calls.length) {
        storeTurn(ctx, {
          instanceId: input.instanceId,
          scopeId: input.scopeExecutionId,
          subProcessId: input.subProcessId,
          agentKey: agent.key,
          turn: st.turn,
          results,
          answer,
          tokens,
          durationMs: Math.round(performance.now() - t0),
        });
        return answer;
      }
    }
  } catch (e) {
    const f = classify(e, timedOut, fatal);
    throw new AgentStepFailed(recordAiFailure(ctx, step, { type: f.type, reason: f.message }));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The loop's wall time, asked when it may have ended while the loop waited (the engine's wake-up job): past it, the
 * loop fails as TIMEOUT (recorded as any AI task failure); before it (the agent's limit was raised meanwhile), the
 * time it ends now.
 */
export async function loopDeadline({ ctx, input }: { ctx: TenantCtx; input: AgentTurnRequest }): Promise<number> {
  try {
    const agent = loadAgent(ctx, input);
    const deadline = input.state.startedAt + agent.limits.maxWallMs;
    if (ctx.clock.now() < deadline) return deadline;
    throw new AgentFailure(
      "TIMEOUT",
      `the agent loop ran past its wall time of ${agent.limits.maxWallMs} ms while waiting for ${input.state.pending.map((p) => p.tool).join(", ") || "its next turn"}`,
    );
  } catch (e) {
    const f = classify(e, false, null);
    throw new AgentStepFailed(recordAiFailure(ctx, stepOf(input), { type: f.type, reason: f.message }));
  }
}
