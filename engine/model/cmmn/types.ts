import type { DecisionResultMapping } from "../../dmn/result-mapping";

/** Plain, JSON-serialisable case definitions: what the case engine interprets (cached per definition version). */

export type PlanItemType =
  | "stage"
  | "humanTask"
  | "task"
  | "processTask"
  | "caseTask"
  | "decisionTask"
  | "milestone"
  | "userEventListener"
  | "timerEventListener";

export interface OnPartModel {
  id: string;
  sourceRef: string;
  event: string;
}

export interface SentryModel {
  id: string;
  onParts: OnPartModel[];
  /** if-part condition source (FEEL or `${...}`), already checked to compile */
  condition?: string;
  /** "default" keeps satisfied on-parts (memory); "onEvent" forgets them after each evaluation */
  triggerMode: "default" | "onEvent";
  /** it has a case file item on-part: there is no case file, so it is never satisfied (deployed with a warning) */
  waitsForCaseFile?: true;
}

export interface CriterionModel {
  id: string;
  sentryId: string;
}

/** An item control rule: present (with an optional condition; absent condition = true). */
export interface RuleModel {
  condition?: string;
}

export interface HumanTaskModel {
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
  formKey?: string;
  dueDate?: string;
  priority?: string;
}

export interface PlanItemModel {
  id: string;
  name: string;
  type: PlanItemType;
  definitionRef: string;
  /** plan item id of the enclosing stage, null for items of the case plan model */
  parent: string | null;
  entryCriteria: CriterionModel[];
  exitCriteria: CriterionModel[];
  required?: RuleModel;
  repetition?: RuleModel & { counterVariable: string };
  manualActivation?: RuleModel;
  completionNeutral?: RuleModel;
  parentCompletionRule?: string;
  isBlocking: boolean;
  /** stage: its children (plan item ids) and autoComplete */
  children?: string[];
  autoComplete?: boolean;
  humanTask?: HumanTaskModel;
  processRef?: string;
  caseRef?: string;
  decisionRef?: string;
  /** decision task: the variable the mapped result goes to; without it, Flowable's default (see decision-task.ts) */
  decisionResult?: { variable: string; mapping: DecisionResultMapping };
  timer?: { expression: string; startTrigger?: { sourceRef: string; event: string } };
  /** task: the robot whose runners do the work (`pms:robot`, or `camunda:topic` of `camunda:type="external"`) */
  robot?: string;
  /** task: the AI agent named in the model (`pms:agent`) */
  agent?: string;
  /** task: another engine's implementation type (`flowable:type="java"`...): never an agent step by attachment */
  implementation?: string;
}

export interface CaseModel {
  id: string;
  name: string;
  planModelId: string;
  startFormKey: string | null;
  initiatorVariableName: string | null;
  autoComplete: boolean;
  /** items directly under the case plan model */
  children: string[];
  /** exit criteria of the case plan model itself */
  exitCriteria: CriterionModel[];
  planItems: Record<string, PlanItemModel>;
  sentries: Record<string, SentryModel>;
  /** plan item id → ids of plan items whose sentries name it in an on-part (for orphaned event listeners) */
  referencedBy: Record<string, string[]>;
}

export interface ParsedCmmn {
  cases: CaseModel[];
  warnings: string[];
}
