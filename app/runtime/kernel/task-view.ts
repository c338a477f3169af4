import type { TaskRecord } from "../../../engine/bpmn";
import { iso, toTask, type TaskRow } from "./rows";

/** Task as the façade returns it (ISO dates). */
export function taskView(t: TaskRecord) {
  return {
    id: t.id,
    name: t.name,
    activityId: t.activityId,
    instanceId: t.instanceId,
    businessKey: t.businessKey,
    definitionKey: t.definitionKey,
    definitionId: t.definitionId,
    assignee: t.assignee,
    owner: t.owner,
    candidateUsers: t.candidateUsers,
    candidateGroups: t.candidateGroups,
    created: iso(t.created)!,
    dueDate: iso(t.dueDate),
    priority: t.priority,
    formKey: t.formKey,
    formVersionId: t.formVersionId,
    state: t.state,
    completedAt: iso(t.completedAt),
    completedBy: t.completedBy,
    channel: t.channel,
  };
}
export type TaskView = ReturnType<typeof taskView>;

export const taskViewOfRow = (r: TaskRow) => taskView(toTask(r));
