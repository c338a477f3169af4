import type { TenantCtx } from "../context";
import { listMembers } from "../admin-members/members";

/** GET /a/members (Admin): the current tenant's members, with their tenant role; the tenant comes from the token only. */
export function listTenantMembers({ ctx }: { ctx: TenantCtx<"platformDb" | "tenants">; input?: undefined }) {
  return listMembers({ ctx, input: { tenantId: ctx.tenant.id } }).map((m) => ({
    membershipId: m.id,
    userId: m.userId,
    email: m.email,
    firstName: m.firstName,
    lastName: m.lastName,
    role: m.role,
    active: m.active,
  }));
}
