import type { TenantCtx } from "../context";
import type { Visibility } from "../../runtime/bpmn/views";

export type InboxCtx = TenantCtx<"processRuntime">;
type InboxQuery = { page?: number; size?: number; instanceId?: string };

/**
 * Open tasks of a user who does not see the whole tenant, newest first (the runtime's inbox read model).
 * A filter by instance goes to the runtime's per-instance query (a handful of rows).
 */
export function openTasksOfUser({ ctx, input }: { ctx: InboxCtx; input: InboxQuery & { visibility: Visibility } }) {
  const { visibility: v, ...q } = input;
  if (q.instanceId) return ctx.processRuntime.listTasks(ctx.tenant.id, v, q);
  return ctx.processRuntime.openTasksOfUser(ctx.tenant.id, v, q);
}

/** `mine=true`: open tasks assigned to the user, newest first, from the open-assignee index. */
export function openTasksAssignedTo({ ctx, input }: { ctx: TenantCtx<"processRuntime">; input: InboxQuery }) {
  const userId = ctx.actor.userId;
  return ctx.processRuntime.listTasks(ctx.tenant.id, { all: false, userId, groups: [] }, { ...input, mine: true });
}
