import { CaseRun } from "./run";
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

/** Creates a case, its plan model row and the first plan items, and runs it until it rests. */
export async function startCaseIn(s: CaseSession, def: CaseDefinition, input: StartCaseInput): Promise<LoadedCase> {
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
  const run = new CaseRun(s, lc);
  await run.createChildren(null, m.children);
  await run.settle();
  return lc;
}
