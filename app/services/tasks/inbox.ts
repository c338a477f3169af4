import type { Platform } from "../../platform/platform";
import type { Visibility } from "../../runtime/bpmn/views";

/**
 * Open tasks of a user who does not see the whole tenant, newest first (the runtime's inbox read model).
 * A filter by instance goes to the runtime's per-instance query (a handful of rows).
 */
export function openTasksOfUser(
  p: Platform,
  tenantId: string,
  v: Visibility,
  q: { page?: number; size?: number; instanceId?: string },
) {
  if (q.instanceId) return p.processRuntime.listTasks(tenantId, v, q);
  return p.processRuntime.openTasksOfUser(tenantId, v, q);
}

/** `mine=true`: open tasks assigned to the user, newest first, from the open-assignee index. */
export function openTasksAssignedTo(
  p: Platform,
  tenantId: string,
  userId: string | null,
  q: { page?: number; size?: number; instanceId?: string },
) {
  return p.processRuntime.listTasks(tenantId, { all: false, userId, groups: [] }, { ...q, mine: true });
}
