import { instanceSummary, type SummaryRow } from "../kernel/instance-summary";
import type { InstanceRow } from "../kernel/rows";

export type { Visibility } from "../kernel/visibility";
export {
  taskVisibilitySql,
  instanceVisibilitySql,
  visibleOpenTasksSql,
  visibleInstances,
} from "../kernel/visibility";
export { taskView, taskViewOfRow, type TaskView } from "../kernel/task-view";
export { page, paging, type Page } from "../kernel/paging";

/** The columns of an instance the summary shows. */
export type InstanceViewRow = SummaryRow & Pick<InstanceRow, "parent_instance_id">;

/** Instance summary (list rows and the base of detail). */
export const instanceView = (r: InstanceViewRow) =>
  instanceSummary("BPMN", r, r.parent_instance_id, r.state === "COMPLETED" || r.state === "CANCELLED");
export type InstanceView = ReturnType<typeof instanceView>;
