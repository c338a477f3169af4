import type { CaseSession } from "./session";
import type { CaseDefinition, LoadedCase } from "./state";

export interface StartCaseInput {
  businessKey: string | null;
  variables: Record<string, unknown>;
  startedBy: string | null;
  channel: string | null;
  parentCaseId?: string | null;
  parentPlanItemId?: string | null;
}

/**
 * Creates a case and its plan model row (CaseRun.startCase then creates the first plan items and runs it). Kept apart
 * from run.ts, which needs it, and from the case task, which starts child cases through its run: no import cycle.
 */
export function createCase(s: CaseSession, def: CaseDefinition, input: StartCaseInput): LoadedCase {
  const variables = { ...input.variables };
  const m = def.model;
  if (m.initiatorVariableName && input.startedBy) variables[m.initiatorVariableName] = input.startedBy;
  const lc = s.create(def, {
    businessKey: input.businessKey,
    parentCaseId: input.parentCaseId ?? null,
    parentPlanItemId: input.parentPlanItemId ?? null,
    startedBy: input.startedBy,
    channel: input.channel,
    variables,
  });
  s.addItem(lc, {
    stageInstanceId: null,
    elementId: m.planModelId,
    definitionRef: m.planModelId,
    name: m.name,
    type: "planModel",
    state: "ACTIVE",
    createdAt: s.now,
    startedAt: s.now,
    endedAt: null,
    endedBy: null,
    channel: input.channel,
    data: { memory: {}, counter: 1 },
  });
  return lc;
}
