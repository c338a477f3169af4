import type { CaseInstanceRecord, PlanItemInstance } from "../../../engine/cmmn";
import { iso, type Row } from "../bpmn/rows";

/** Case summary (list rows and the base of detail), shaped like process instances with type CMMN. */
export function caseView(r: Row) {
  return {
    id: r.id as string,
    businessKey: r.business_key as string | null,
    definitionKey: r.definition_key as string,
    definitionId: r.definition_id as string,
    version: r.version as number,
    type: "CMMN" as const,
    state: r.state as string,
    suspended: false,
    startTime: iso(r.start_time)!,
    endTime: iso(r.end_time),
    ended: r.state !== "ACTIVE",
    endReason: r.end_reason as string | null,
    startedBy: r.started_by as string | null,
    parentInstanceId: r.parent_case_id as string | null,
  };
}
export type CaseView = ReturnType<typeof caseView>;

/** The same summary from the record a command holds (no re-read after the write). */
export function caseViewOf(i: CaseInstanceRecord): CaseView {
  return {
    id: i.id,
    businessKey: i.businessKey,
    definitionKey: i.definitionKey,
    definitionId: i.definitionId,
    version: i.version,
    type: "CMMN",
    state: i.state,
    suspended: false,
    startTime: iso(i.startTime)!,
    endTime: iso(i.endTime),
    ended: i.state !== "ACTIVE",
    endReason: i.endReason,
    startedBy: i.startedBy,
    parentInstanceId: i.parentCaseId,
  };
}

export type PlanItemAction = "START" | "DISABLE" | "ENABLE" | "TRIGGER" | "COMPLETE_STAGE";

/** Actions a person may take on a plan item in its current state (COMPLETE_STAGE, a forced close, for Managers only). */
export function actionsOf(pi: PlanItemInstance, isManager: boolean): PlanItemAction[] {
  if (pi.state === "ENABLED") return ["START", "DISABLE"];
  if (pi.state === "DISABLED") return ["ENABLE"];
  if (pi.type === "userEventListener" && pi.state === "AVAILABLE") return ["TRIGGER"];
  if (pi.type === "task" && pi.state === "ACTIVE") return ["TRIGGER"];
  if (pi.type === "stage" && pi.state === "ACTIVE" && isManager) return ["COMPLETE_STAGE"];
  return [];
}

/** The pinned plan-item body: `{id, elementId, name, type, state, stageId?, actions}`. */
export function planItemView(pi: PlanItemInstance, isManager: boolean) {
  return {
    id: pi.id,
    elementId: pi.elementId,
    name: pi.name,
    type: pi.type,
    state: pi.state,
    ...(pi.stageInstanceId ? { stageId: pi.stageInstanceId } : {}),
    actions: actionsOf(pi, isManager),
  };
}
export type PlanItemView = ReturnType<typeof planItemView>;
