import type { ToolParam } from "../model/bpmn/types";

/** An activity of an agent's ad-hoc subprocess as the model is offered it (name = activity id). */
export interface AgentLoopTool {
  name: string;
  /** BPMN type of the activity (userTask, serviceTask, ...) */
  type: string;
  title: string;
  description: string;
  params: ToolParam[];
}

/** One step of the conversation kept with the loop: a model turn (its messages, opaque here) or a tool's result. */
export type LoopEntry =
  | { kind: "model"; turn: number; messages: unknown[] }
  | {
      kind: "result";
      callId: string;
      tool: string;
      args: Record<string, unknown>;
      ok: boolean;
      value: unknown;
      startedAt: number;
      endedAt: number;
    };

/** A tool call the model made that runs as an activity instance now. */
export interface PendingToolCall {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  executionId: string;
  startedAt: number;
}

/**
 * The state of an agent loop, kept on the ad-hoc subprocess' scope execution (written with the instance, in the
 * command's transaction): the conversation so far, the tool calls running, the outputs set, what it has spent.
 */
export interface AgentLoopState {
  agent: string;
  /** model turns asked so far; the next turn's number */
  turn: number;
  startedAt: number;
  entries: LoopEntry[];
  pending: PendingToolCall[];
  outputs: Record<string, unknown>;
  spent: { modelCalls: number; toolCalls: number; tokens: number };
}

/** What the engine asks the agent port for one turn. */
export interface AgentTurnRequest {
  tenantId: string;
  instanceId: string;
  definitionKey: string;
  businessKey: string | null;
  startedBy: string | null;
  subProcessId: string;
  scopeExecutionId: string;
  state: AgentLoopState;
  tools: AgentLoopTool[];
  /** an ad-hoc subprocess with ordering="Sequential": one activity at a time */
  sequential: boolean;
  variables(): Record<string, unknown>;
}

/** The port's answer: activity tools to run, or the loop's end with the agent's outputs. */
export interface AgentTurnAnswer {
  messages: unknown[];
  calls: Array<{ callId: string; tool: string; args: Record<string, unknown> }>;
  /** set when the model answered without a tool call: the agent's declared outputs */
  final?: Record<string, unknown>;
  outputs: Record<string, unknown>;
  spent: { modelCalls: number; toolCalls: number; tokens: number };
  /** when the loop's wall time ends: a loop still waiting then is woken to fail */
  deadlineAt?: number;
}

/** Runs one turn of an agent loop (app/services/agents/loop): throws when the loop fails (recorded there). */
export interface AgentLoopPort {
  turn(req: AgentTurnRequest): Promise<AgentTurnAnswer>;
  /** The loop's wall time may have ended while it waited: throws (recorded) when it has, else answers when it will. */
  deadline(req: AgentTurnRequest): Promise<number>;
}
