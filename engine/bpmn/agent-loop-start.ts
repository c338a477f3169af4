import type { ElementModel } from "../model/bpmn/types";
import type { AgentLoopState } from "./agent-loop-types";
import type { Run } from "./run";
import type { ExecutionRecord } from "./state";

/** The agent of an ad-hoc subprocess: named in the model (`pms:agent`) or attached by the platform. */
export function loopAgentOf(run: Run, token: ExecutionRecord, el: ElementModel): string | undefined {
  if (!el.adhoc) return undefined;
  if (el.adhoc.agent) return el.adhoc.agent;
  const inst = run.space(token).instance;
  return run.deps.attachedAgent?.(inst.tenantId, inst.definitionKey, el.id);
}

/** Starts the loop on the subprocess' new scope execution: its state, and the job of its first turn. */
export function startAgentLoop(run: Run, scope: ExecutionRecord, el: ElementModel, agent: string): void {
  const loop: AgentLoopState = {
    agent,
    turn: 0,
    startedAt: run.now,
    entries: [],
    pending: [],
    outputs: {},
    spent: { modelCalls: 0, toolCalls: 0, tokens: 0 },
  };
  scope.data.loop = loop;
  run.mark(scope);
  run.newJob(scope, el, "async", run.now, { agent, agentTurn: true });
}
