// Shared by tasks, instances, history, dashboard, adhoc and plan items; it lives with instances, its first reader.
import type { Visibility } from "../../runtime/bpmn";
import { seesWholeTenant, type TenantCtx } from "../context";
import { processRolesOfUser } from "../process-roles/queries";

export type VisibilityCtx = TenantCtx<"platformDb">;

/**
 * What the caller may see of instances and tasks. Managers, Admins and SA see the tenant; an API key is an integration
 * credential created by an Admin and sees the tenant too; everyone else sees what they take part in, directly or
 * through their process roles.
 */
export function visibilityOf(ctx: VisibilityCtx): Visibility {
  const a = ctx.actor;
  if (a.kind !== "user" || seesWholeTenant(a)) return { all: true, userId: a.userId, groups: [] };
  return {
    all: false,
    userId: a.userId,
    groups: processRolesOfUser(ctx.platformDb, ctx.tenant.id, a.userId!),
  };
}
