import type { TenantCtx } from "../context";
import type { Visibility } from "../../runtime/bpmn/views";
import { processRolesOfUser } from "../process-roles/queries";

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

/**
 * The caller's own inbox (svc_run_my_tasks): open tasks assigned or offered to them or to their process roles, even
 * for an Admin who sees the whole tenant elsewhere.
 */
export function myInbox({ ctx, input }: { ctx: InboxCtx & TenantCtx<"platformDb">; input: InboxQuery }) {
  const userId = ctx.actor.userId;
  const groups = userId ? processRolesOfUser(ctx.platformDb, ctx.tenant.id, userId) : [];
  return openTasksOfUser({ ctx, input: { ...input, visibility: { all: false, userId, groups } } });
}
