import type { TaskFilter, TaskSort } from "../../runtime/kernel/task-filter";
import { validationError, variablePairIssues } from "../validation";

/** The tasklist's query as the API receives it (instants already read as epoch ms). */
export interface TaskFilterInput {
  mine?: boolean;
  instanceId?: string;
  processKey?: string;
  candidateGroup?: string;
  assignee?: string;
  unassigned?: boolean;
  dueAfter?: number;
  dueBefore?: number;
  search?: string;
  varName?: string;
  varValue?: string;
  sort?: TaskSort;
}

/**
 * The runtime's filter, after the checks that span fields (each a 400 naming the field): a variable search needs both
 * name and value, a task cannot be both unassigned and someone's, and a due window must not end before it starts.
 */
export function taskFilterOf(q: TaskFilterInput): TaskFilter {
  const issues: { path: PropertyKey[]; message: string }[] = variablePairIssues(q);
  if (q.unassigned && q.assignee) issues.push({ path: ["assignee"], message: "cannot be given with unassigned=true" });
  if (q.dueAfter !== undefined && q.dueBefore !== undefined && q.dueAfter > q.dueBefore)
    issues.push({ path: ["dueBefore"], message: "must not be before dueAfter" });
  if (issues.length) throw validationError(issues);
  const { search, ...rest } = q;
  return { ...rest, text: search };
}
