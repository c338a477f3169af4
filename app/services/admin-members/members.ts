import { and, asc, eq } from "drizzle-orm";
import { memberships, users } from "../../../db/platform/schema";
import type { Platform } from "../../platform/platform";
import { ConflictError, NotFoundError } from "../errors";
import { getTenant } from "../admin-tenants/tenants";
import { getUser } from "../admin-users/users";
import type { TenantRole } from "../context";

type MembershipRow = typeof memberships.$inferSelect;

export function membershipView(m: MembershipRow) {
  return { id: m.id, userId: m.userId, tenantId: m.tenantId, role: m.role };
}

/** Members of a tenant with their user's name and e-mail. */
export function listMembers(p: Platform, tenantId: string) {
  getTenant(p, tenantId);
  return p.platformDb
    .select({
      id: memberships.id,
      userId: memberships.userId,
      tenantId: memberships.tenantId,
      role: memberships.role,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      active: users.active,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.tenantId, tenantId))
    .orderBy(asc(users.email))
    .all();
}

/** POST /admin/tenants/{id}/members: one membership per user and tenant (409 otherwise). */
export function addMember(p: Platform, tenantId: string, input: { userId: string; role: TenantRole }) {
  getTenant(p, tenantId);
  getUser(p, input.userId);
  const existing = p.platformDb
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, input.userId)))
    .get();
  if (existing) throw new ConflictError("The user is already a member of this tenant; change the role instead");
  const row: MembershipRow = {
    id: crypto.randomUUID(),
    userId: input.userId,
    tenantId,
    role: input.role,
    createdAt: new Date(p.clock.now()).toISOString(),
  };
  p.platformDb.insert(memberships).values(row).run();
  return membershipView(row);
}

function getMembership(p: Platform, tenantId: string, membershipId: string): MembershipRow {
  getTenant(p, tenantId);
  const m = p.platformDb
    .select()
    .from(memberships)
    .where(and(eq(memberships.id, membershipId), eq(memberships.tenantId, tenantId)))
    .get();
  if (!m) throw new NotFoundError(`Membership ${membershipId} not found in this tenant`);
  return m;
}

/** DELETE /admin/tenants/{id}/members/{membershipId} */
export function removeMember(p: Platform, tenantId: string, membershipId: string) {
  getMembership(p, tenantId, membershipId);
  p.platformDb.delete(memberships).where(eq(memberships.id, membershipId)).run();
}

/** PATCH /admin/tenants/{id}/members/{membershipId}/role */
export function changeMemberRole(p: Platform, tenantId: string, membershipId: string, role: TenantRole) {
  const m = getMembership(p, tenantId, membershipId);
  p.platformDb.update(memberships).set({ role }).where(eq(memberships.id, membershipId)).run();
  return membershipView({ ...m, role });
}
