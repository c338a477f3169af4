import type { CaseInstanceRecord, PlanItemInstance } from "../../../engine/cmmn";
import { instanceSummary, summaryRowOf } from "../kernel/instance-summary";
import type { CaseInstanceRow } from "./rows";

/** Case summary (list rows and the base of detail), shaped like process instances with type CMMN. */
export const caseView = (r: CaseInstanceRow) => instanceSummary("CMMN", r, r.parent_case_id, r.state !== "ACTIVE");
export type CaseView = ReturnType<typeof caseView>;

/** The same summary from the record a command holds (no re-read after the write). */
export const caseViewOf = (i: CaseInstanceRecord): CaseView =>
  instanceSummary("CMMN", summaryRowOf(i), i.parentCaseId, i.state !== "ACTIVE");

export type PlanItemAction = "START" | "DISABLE" | "ENABLE" | "TRIGGER" | "COMPLETE_STAGE" | "REACTIVATE";

/**
 * Actions a person may take on a plan item in its current state (COMPLETE_STAGE, a forced close, for Managers only).
 * A robot's or an agent's task is completed by its worker, never triggered; a failed agent step can be reactivated.
 */
export function actionsOf(pi: PlanItemInstance, isManager: boolean): PlanItemAction[] {
  if (pi.state === "FAILED" && pi.data.agent) return ["REACTIVATE"];
  if (pi.data.robot || pi.data.agent) return [];
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
