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
}
