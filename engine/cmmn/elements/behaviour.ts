import type { PlanItemModel } from "../../model/cmmn";
import type { CaseRun } from "../run";
import type { PlanItemInstance } from "../state";

/** What a plan item type does once it becomes active, and how it cleans up when it is ended early. */
export interface Behaviour {
  start(run: CaseRun, pi: PlanItemInstance, pm: PlanItemModel): Promise<void> | void;
  end?(run: CaseRun, pi: PlanItemInstance): void;
}
