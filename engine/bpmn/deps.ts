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

/**
 * Runs JavaScript of a model (script task, condition) away from the service's own runtime: the sandbox port, built
 * in app/runtime. `execution` is all the script sees. Returns the value of the last expression; throws on error,
 * timeout or memory exhaustion with a message naming the cause.
 */
export interface ScriptSandbox {
  run(
    source: string,
    execution: { getVariable(name: string): unknown; setVariable(name: string, value: unknown): void },
  ): unknown;
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
  newId(): string;
}
