import type { Confidentiality } from "../cms/clearance";
import type { Agent } from "./store";
import type { ToolCallRecord } from "./tool-log";

/** What an agent's tools see of the run: the agent, its clearance, the step and its variables, the outputs so far. */
export interface AgentRunEnv {
  agent: Agent;
  clearance: Confidentiality;
  instanceId: string | null;
  activity: string | null;
  variables(): Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Filled with each tool call as it ends, when the caller wants them (the playground answers them). */
  calls?: { tool: string; outcome: string; detail: string | null }[];
  /** the turn of an agent loop the tools run in (recorded with each call) */
  turn?: number;
  /**
   * Takes each tool call's audit record instead of writing it at once: an agent loop writes them in the transaction
   * of the model step they belong to (loop/step-store.ts), so a crash keeps both or neither.
   */
  record?: (r: ToolCallRecord) => void;
}
