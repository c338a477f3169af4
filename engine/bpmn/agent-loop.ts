import { DelegateFailure, EngineError, RevisionConflict } from "../errors";
import type { ElementModel } from "../model/bpmn/types";
import type { AgentLoopTool, AgentTurnRequest } from "./agent-loop-types";
import { completeAdhoc } from "./elements/adhoc-sub-process";
import type { Run } from "./run";
import type { ExecutionRecord } from "./state";

/**
 * An ad-hoc subprocess driven by an AI agent (docs/agents.md): the agent's turns run as jobs on the subprocess' scope
 * execution; each turn either starts the activities the model called (each an async continuation of its own, so a
 * failing one follows the job rules alone) or ends the subprocess with the agent's outputs. As the last running tool
 * activity leaves, its result joins the conversation and the next turn's job is created.
 */

/** The tools of a loop: the activities a caller may start in the subprocess. */
export function loopTools(run: Run, scope: ExecutionRecord, el: ElementModel): AgentLoopTool[] {
  return el.adhoc!.enabled.map((id) => {
    const a = run.el(scope, id);
    return {
      name: a.id,
      type: a.type,
      title: a.name || a.id,
      description: [a.name, a.documentation].filter(Boolean).join("\n\n") || a.id,
      params: a.toolParams ?? [],
    };
  });
}

function requestOf(run: Run, scope: ExecutionRecord, el: ElementModel, tools: AgentLoopTool[]): AgentTurnRequest {
  const inst = run.space(scope).instance;
  return {
    tenantId: inst.tenantId,
    instanceId: inst.id,
    definitionKey: inst.definitionKey,
    businessKey: inst.businessKey,
    startedBy: inst.startedBy,
    subProcessId: el.id,
    scopeExecutionId: scope.id,
    state: structuredClone(scope.data.loop!),
    tools,
    sequential: el.adhoc!.sequential,
    variables: () => run.allVars(scope),
  };
}

/** The agent's failure (already recorded by the agents service) fails the loop's job: the job rules apply. */
function failureOf(el: ElementModel, e: unknown): unknown {
  if (e instanceof EngineError || e instanceof RevisionConflict) return e;
  return new DelegateFailure(`Agent loop '${el.id}' failed: ${e instanceof Error ? e.message : String(e)}`, {
    activityId: el.id,
  });
}

/** The job that wakes a waiting loop when its wall time ends (one per loop; gone with the subprocess). */
function wakeAt(run: Run, scope: ExecutionRecord, el: ElementModel, at: number): void {
  const jobs = run.space(scope).jobs.values();
  if ([...jobs].some((j) => j.executionId === scope.id && j.data.agentDeadline)) return;
  run.newJob(scope, el, "async", at, { agent: scope.data.loop!.agent, agentDeadline: true });
}

/** A loop's wall time may have ended while it waits (a person who does not answer): the agents service decides. */
export async function agentDeadline(run: Run, scope: ExecutionRecord, el: ElementModel): Promise<void> {
  const port = run.deps.agentLoop;
  if (!scope.data.loop || !port) return;
  let next: number;
  try {
    next = await run.s.once(`agent-deadline/${scope.id}`, () => port.deadline(requestOf(run, scope, el, [])));
  } catch (e) {
    throw failureOf(el, e);
  }
  // Not yet (the agent's limit was raised meanwhile): woken again then.
  if (run.alive(scope)) wakeAt(run, scope, el, next);
}

/** One turn (the loop's job ran): ask the agent once per command run, then start its tools or end the subprocess. */
export async function agentTurn(run: Run, scope: ExecutionRecord, el: ElementModel): Promise<void> {
  const loop = scope.data.loop;
  const port = run.deps.agentLoop;
  if (!loop || !port) return run.incident(scope, el, `ad-hoc subprocess '${el.id}' has no agent loop to run`);
  const tools = loopTools(run, scope, el);
  let answer: Awaited<ReturnType<typeof port.turn>>;
  try {
    answer = await run.s.once(`agent-loop/${scope.id}/${loop.turn}`, () => port.turn(requestOf(run, scope, el, tools)));
  } catch (e) {
    throw failureOf(el, e);
  }
  if (!run.alive(scope)) return;
  loop.entries.push({ kind: "model", turn: loop.turn, messages: answer.messages });
  loop.turn++;
  loop.outputs = answer.outputs;
  loop.spent = answer.spent;
  run.mark(scope);
  if (answer.final) {
    for (const [k, v] of Object.entries(answer.final)) run.setVar(scope, k, v);
    return completeAdhoc(run, scope);
  }
  if (answer.deadlineAt !== undefined) wakeAt(run, scope, el, answer.deadlineAt);
  for (const call of answer.calls) {
    const tool = tools.find((t) => t.name === call.tool)!;
    const token = run.newToken(scope);
    for (const p of tool.params) run.setLocal(token, p.target, call.args[p.name] ?? null);
    token.data.toolCall = call.callId;
    loop.pending.push({ ...call, executionId: token.id, startedAt: run.now });
    run.schedule(() => run.enter(token, call.tool));
  }
}

/**
 * A tool activity is done (it left, or failed past its retries): its result joins the conversation; the last one
 * running creates the next turn's job. `value` is what the activity wrote (its variables), or the failure.
 */
export function toolDone(run: Run, token: ExecutionRecord, ok: boolean, value: unknown): void {
  const callId = token.data.toolCall;
  const scope = run.parent(token);
  const loop = scope?.data.loop;
  delete token.data.toolCall;
  delete token.data.toolOut;
  run.mark(token);
  if (!callId || !scope || !loop) return;
  const i = loop.pending.findIndex((p) => p.callId === callId);
  if (i < 0) return;
  const [p] = loop.pending.splice(i, 1);
  loop.entries.push({
    kind: "result",
    callId,
    tool: p.tool,
    args: p.args,
    ok,
    value,
    startedAt: p.startedAt,
    endedAt: run.now,
  });
  run.mark(scope);
  if (!loop.pending.length)
    run.newJob(scope, run.el(scope, scope.scopeId!), "async", run.now, {
      agent: loop.agent,
      agentTurn: true,
    });
}

/** What a tool activity answers its caller when it leaves: the variables it wrote, else that it completed. */
export const toolResultOf = (token: ExecutionRecord): unknown =>
  token.data.toolOut && Object.keys(token.data.toolOut).length ? { ...token.data.toolOut } : { completed: true };

/** A tool activity failed past its job's retries: it is cancelled, and the model told so. */
export function failAgentTool(run: Run, instanceId: string, executionId: string, message: string): boolean {
  const token = run.s.require(instanceId).executions.get(executionId);
  if (!token?.data.toolCall) return false;
  failToolNow(run, token, message);
  return true;
}

/** A tool activity that cannot go on (past its retries, or an incident): cancelled, its failure the call's result. */
export function failToolNow(run: Run, token: ExecutionRecord, message: string): void {
  toolDone(run, token, false, { error: message });
  run.cancelExecution(token);
}
