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

/** Collaborators the interpreter calls out to; everything else is in the session. */
export interface EngineDeps {
  delegates: DelegateRegistry;
  decisions?: DecisionEvaluator;
  formVersionFor?: (tenantId: string, definitionKey: string, formKey: string) => string | null;
  logger: EngineLogger;
  newId(): string;
}
