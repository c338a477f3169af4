import type { AgentLoopPort } from "./agent-loop-types";
import type { DelegateRegistry } from "./delegates/types";

export interface EngineLogger {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** Evaluates a DMN decision for a business-rule task (wired to the decision engine by the service layer). */
export type DecisionEvaluator = (
  tenantId: string,
  decisionKey: string,
  variables: Record<string, unknown>,
) => Promise<{ result: unknown }> | { result: unknown };

/** What one JavaScript evaluation gives back: the value of its last expression and its writes, in order. */
export interface ScriptOutcome {
  value: unknown;
  writes: Array<[name: string, value: unknown]>;
}

/**
 * Runs JavaScript of a model (script task, condition) away from the service's own runtime: the sandbox port, built
 * in app/runtime (a pool of killable workers). The script sees `execution.getVariable/setVariable` over a copy of the
 * variables visible where it runs; its writes come back to be applied by the engine, in order. Asynchronous, so a
 * command waits for it while computing, before its write transaction opens. Rejects on error, deadline, memory or
 * size limits with a message naming the limit.
 */
export interface ScriptSandbox {
  run(source: string, job: { tenantId: string; variables: Record<string, unknown> }): Promise<ScriptOutcome>;
}

/** Collaborators the interpreter calls out to; everything else is in the session. */
export interface EngineDeps {
  delegates: DelegateRegistry;
  decisions?: DecisionEvaluator;
  formVersionFor?: (tenantId: string, definitionKey: string, formKey: string) => string | null;
  logger: EngineLogger;
  /** JavaScript in models; without it, a JavaScript script or condition fails when reached */
  scripts?: ScriptSandbox;
  /**
   * The agent attached to a step by the platform (not named in the model), or undefined. An agent step runs the
   * delegate registered as `agent` with the parameter `agent` (its key).
   */
  attachedAgent?: (tenantId: string, definitionKey: string, activityId: string) => string | undefined;
  /** Runs the turns of ad-hoc subprocesses driven by an agent; without it, such a subprocess raises an incident */
  agentLoop?: AgentLoopPort;
  newId(): string;
}
