import type { TaskRecord } from "../bpmn/state";
import type { CaseModel, PlanItemType } from "../model/cmmn";

export type { TaskRecord };

/** Plan item states, Flowable's names in upper case. */
export type PlanItemState =
  | "AVAILABLE"
  | "ENABLED"
  | "DISABLED"
  | "ACTIVE"
  | "COMPLETED"
  | "TERMINATED"
  | "FAILED"
  | "WAITING_FOR_REPETITION";

/**
 * States after which an item never moves again. FAILED is not one of them: a failed agent step (CMMN's fault) can be
 * reactivated, and until then it keeps its stage and the case open (spec: the case stays open, the step can run again).
 */
export const ENDED: ReadonlySet<PlanItemState> = new Set(["COMPLETED", "TERMINATED"]);
/** States that count as done when deciding whether the enclosing stage can complete (disabled and waiting-for-repetition included). */
export const DONE_FOR_PARENT: ReadonlySet<PlanItemState> = new Set([
  "COMPLETED",
  "TERMINATED",
  "DISABLED",
  "WAITING_FOR_REPETITION",
]);

export type CaseState = "ACTIVE" | "COMPLETED" | "TERMINATED";

export interface PlanItemData {
  /** satisfied on-parts per criterion id (sentry memory) */
  memory: Record<string, string[]>;
  /** 1 for the first instance of a plan item, +1 per repetition */
  counter: number;
  taskId?: string;
  processInstanceId?: string;
  childCaseId?: string;
  /** last standard event of this item (complete, exit, occur, ...) */
  lastEvent?: string;
  /** a task done by a robot: its key, and the external job its runners fetch */
  robot?: string;
  jobId?: string;
  /** a task done by an AI agent: its key, and why its last run failed (state FAILED) */
  agent?: string;
  failure?: string;
}

export interface PlanItemInstance {
  id: string;
  tenantId: string;
  caseInstanceId: string;
  /** enclosing stage instance, null for items of the case plan model; the hidden plan model row has type "planModel" */
  stageInstanceId: string | null;
  elementId: string;
  definitionRef: string;
  name: string;
  type: PlanItemType | "planModel";
  state: PlanItemState;
  seq: number;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  endedBy: string | null;
  channel: string | null;
  data: PlanItemData;
}

export interface CaseInstanceRecord {
  id: string;
  tenantId: string;
  definitionId: string;
  definitionKey: string;
  version: number;
  businessKey: string | null;
  parentCaseId: string | null;
  parentPlanItemId: string | null;
  state: CaseState;
  startedBy: string | null;
  channel: string | null;
  startTime: number;
  endTime: number | null;
  endReason: string | null;
  variables: Record<string, unknown>;
  revision: number;
}

/** A deployed case definition version as the engine needs it. */
export interface CaseDefinition {
  id: string;
  key: string;
  version: number;
  model: CaseModel;
}

export interface TimerRecord {
  id: string;
  tenantId: string;
  caseInstanceId: string;
  planItemInstanceId: string;
  elementId: string;
  dueAt: number;
  repeat: { left: number; spec: string } | null;
  createdAt: number;
}

/** Work of a task done outside the command: an agent run (kernel job executor) or a robot's external job (runners). */
export interface CaseJobRecord {
  id: string;
  tenantId: string;
  caseInstanceId: string;
  definitionId: string;
  planItemInstanceId: string;
  elementId: string;
  kind: "case-agent" | "external";
  /** `case`: marks a robot's job as a case's, so runners' calls find the case runtime without a lookup */
  data: { agent?: string; topic?: string; case?: true };
  createdAt: number;
}

export interface Involvement {
  tenantId: string;
  instanceId: string;
  kind: "user" | "group";
  principal: string;
}

/** A case loaded into a session: its row, its plan items (all, ended ones included) and its model. */
export interface LoadedCase {
  instance: CaseInstanceRecord;
  items: PlanItemInstance[];
  definition: CaseDefinition;
  isNew: boolean;
  baseRevision: number;
  /** state when loaded: the store rewrites the state columns (and their index entries) only when it changed */
  baseState: CaseState;
  newItems: Set<string>;
  dirtyItems: Set<string>;
}

/** Everything a command changed; the store writes it in one transaction. */
export interface CaseChanges {
  cases: Map<string, LoadedCase>;
  tasksCreated: TaskRecord[];
  tasksEnded: Array<{
    id: string;
    state: "COMPLETED" | "CANCELLED";
    at: number;
    by: string | null;
    channel: string | null;
  }>;
  timersCreated: TimerRecord[];
  timersCancelledFor: Array<{ caseInstanceId: string; planItemInstanceId: string }>;
  jobsCreated: CaseJobRecord[];
  /** plan items whose agent or robot jobs are removed (the task completed or ended) */
  jobsCancelledFor: Array<{ caseInstanceId: string; planItemInstanceId: string }>;
  involvements: Involvement[];
}

export interface Actor {
  userId: string | null;
  channel: string | null;
}
