import type { EngineDecisionResult } from "../dmn/result-mapping";
import type { CaseDefinition, LoadedCase } from "./state";

/** What the pure engine needs from outside: ids, time, the store (read only) and the other engines. */
export interface CaseEngineDeps {
  newId(): string;
  /** Reads a case with its plan items; null when unknown for the tenant. */
  loadCase(tenantId: string, caseId: string): LoadedCase | null;
  /** Published (else latest) version of a case definition key. */
  startableDefinition(tenantId: string, key: string): CaseDefinition | null;
  formVersionFor?(tenantId: string, definitionKey: string, formKey: string): string | null;
  decisions?(tenantId: string, key: string, variables: Record<string, unknown>): Promise<EngineDecisionResult>;
  startProcess?(
    tenantId: string,
    definitionKey: string,
    variables: Record<string, unknown>,
    parent: { caseInstanceId: string; planItemId: string },
  ): Promise<{ id: string; ended: boolean }>;
  /** The agent the platform attached to a task (case key + plan item id, else its task definition id), if any. */
  attachedAgent?(tenantId: string, caseKey: string, elementIds: string[]): string | undefined;
  /** Runs an agent step outside any write; a failure of the agent is an answer (the step faults), not a throw. */
  runAgent?(step: CaseAgentStep): Promise<{ outputs: Record<string, unknown> } | { failure: string }>;
}

/** An agent step of a case as the platform's agent runner needs it. */
export interface CaseAgentStep {
  tenantId: string;
  caseInstanceId: string;
  caseKey: string;
  businessKey: string | null;
  startedBy: string | null;
  elementId: string;
  agentKey: string;
  variables: Record<string, unknown>;
}
