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
import type { ToolCallRecord } from "../tool-log";
import { type StepRecord, storedSteps, storeStep, writeCalls } from "./step-store";
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
 * a command computed again) is answered from its record: the model is never asked twice for one turn; a turn run again
 * midway replays the model steps it kept (step-store.ts) and asks from the next one. The limits of
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
  const failing = stepOf(input);
  const abort = new AbortController();
  let fatal: FatalRefusal | null = null;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The own tools' audit records wait for the model step they belong to: written in its transaction (step-store.ts).
  let records: ToolCallRecord[] = [];
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
    const at = { instanceId: input.instanceId, activity: input.subProcessId, agentKey: agent.key, turn: st.turn };
    env.record = (r) => records.push(r);
    // What the turn holds so far: its steps already answered (before a crash) replayed, never asked again.
    let added: ModelMessage[] = [];
    let spent = { ...st.spent };
    let tokens = 0;
    let step = 0;
    let replayedMs = 0;
    const apply = (s: StepRecord) => {
      added.push(...(s.messages as ModelMessage[]));
      env.outputs = { ...s.outputs };
      spent.modelCalls++;
      spent.tokens += s.tokens;
      spent.toolCalls += s.toolCalls;
      tokens += s.tokens;
      step++;
    };
    const restore = () => {
      added = st.turn === 0 ? [{ role: "user", content: agentPrompt(input.variables()).prompt }] : [];
      env.outputs = { ...st.outputs };
      spent = { ...st.spent };
      tokens = step = replayedMs = 0;
      for (const s of storedSteps(ctx, input.scopeExecutionId, st.turn)) {
        apply(s);
        replayedMs += s.durationMs;
      }
    };
    restore();
    const caller = {
      tenantId: ctx.tenant.id,
      kind: "SYSTEM" as const,
      userId: null,
      apiKeyId: null,
      feature: "agent-loop",
    };
    const t0 = performance.now();
    for (;;) {
      if (spent.modelCalls >= limits.maxModelCalls)
        throw new AgentFailure("MODEL_CALLS_EXCEEDED", `the agent loop used its ${limits.maxModelCalls} model calls`);
      if (spent.tokens >= limits.maxTokens)
        throw new AgentFailure(
          "TOKENS_EXCEEDED",
          `the agent loop used ${spent.tokens} of its ${limits.maxTokens} tokens`,
        );
      const askedAt = ctx.clock.now();
      records = [];
      const r = await ctx.ai.generateTurn(caller, {
        modelId: agent.modelId,
        system: systemOf(agent),
        messages: [...messages, ...added],
        tools,
        signal: abort.signal,
      });
      if (fatal) throw fatal;
      const used = r.usage.inputTokens + r.usage.outputTokens;
      const stepMessages: ModelMessage[] = [...r.messages];
      const activityCalls = r.toolCalls.filter((c) => !c.invalid && byName.has(c.name));
      // A sequential subprocess runs one activity at a time: the calls past the first are refused, and told.
      if (input.sequential)
        for (const c of activityCalls.splice(1)) {
          const why = `${input.subProcessId} runs one activity at a time: call ${c.name} again once ${activityCalls[0].name} answered`;
          stepMessages.push(toolResultMessage(c.id, c.name, false, { error: why }));
          c.invalid = why;
        }
      const calls: ToolCallRecord[] = [
        {
          ...at,
          tool: "model",
          args: null,
          outcome: "OK",
          detail: r.toolCalls.length ? `called ${r.toolCalls.map((c) => c.name).join(", ")}` : "answered",
          durationMs: r.durationMs,
          tokens: used,
          at: askedAt,
        },
        ...records,
        // Calls the agent may not make (a tool it was not offered, arguments its schema refuses): told to the model.
        ...r.toolCalls
          .filter((x) => x.invalid)
          .map((c) => ({
            ...at,
            tool: c.name,
            args: c.input,
            outcome: "REFUSED" as const,
            detail: c.invalid,
            durationMs: 0,
          })),
      ];
      // Not yet written: a failure before the step is stored (a limit, an invalid final answer) writes them.
      records = calls;
      const rec: StepRecord = {
        messages: stepMessages,
        outputs: { ...env.outputs },
        tokens: used,
        toolCalls: r.toolCalls.length,
        durationMs: r.durationMs,
      };
      apply(rec);
      const over =
        spent.toolCalls > limits.maxToolCalls
          ? new AgentFailure(
              "TOOL_CALLS_EXCEEDED",
              `the agent loop asked more than its ${limits.maxToolCalls} tool calls`,
            )
          : spent.tokens > limits.maxTokens
            ? new AgentFailure(
                "TOKENS_EXCEEDED",
                `the agent loop used ${spent.tokens} of its ${limits.maxTokens} tokens`,
              )
            : null;
      if (over) throw over;
      const answer: AgentTurnAnswer = {
        messages: added,
        calls: activityCalls.map((c) => ({ callId: c.id, tool: c.name, args: c.input ?? {} })),
        outputs: env.outputs,
        spent,
        deadlineAt: st.startedAt + limits.maxWallMs,
      };
      if (!r.toolCalls.length) answer.final = finalOutputs(agent.outputVariables, env.outputs, r.text);
      records = [];
      if (answer.final || answer.calls.length)
        return storeTurn(ctx, {
          instanceId: input.instanceId,
          scopeId: input.scopeExecutionId,
          subProcessId: input.subProcessId,
          agentKey: agent.key,
          turn: st.turn,
          results,
          answer,
          tokens,
          durationMs: replayedMs + Math.round(performance.now() - t0),
          calls,
        });
      // Only the agent's own tools were called: the step is kept before the model is asked the next one. A racing
      // run of this turn that kept it first wins: its steps are replayed instead of this one.
      const kept = { instanceId: input.instanceId, scopeId: input.scopeExecutionId, turn: st.turn, step: step - 1 };
      if (!storeStep(ctx, { ...kept, record: rec, calls })) restore();
    }
  } catch (e) {
    // A step that failed midway (the model down, a fatal refusal, a limit): the calls it made are still recorded.
    if (records.length) ctx.db.orm.transaction((tx) => writeCalls(tx, records, ctx.clock.now()));
    const f = classify(e, timedOut, fatal);
    throw new AgentStepFailed(recordAiFailure(ctx, failing, { type: f.type, reason: f.message }));
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
