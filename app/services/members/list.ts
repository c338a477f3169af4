import type { RequestCtx } from "../context";
import { listMembers } from "../admin-members/members";

/** GET /a/members (Admin): the current tenant's members, with their tenant role; the tenant comes from the token only. */
export function listTenantMembers(ctx: RequestCtx) {
  return listMembers(ctx.platform, ctx.tenant.id).map((m) => ({
    membershipId: m.id,
    userId: m.userId,
    email: m.email,
    firstName: m.firstName,
    lastName: m.lastName,
    role: m.role,
    active: m.active,
  }));
}
