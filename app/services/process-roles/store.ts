import { and, asc, eq, inArray } from "drizzle-orm";
import { memberships, processRoleMembers, processRoles, users } from "../../../db/platform/schema";
import type { PlatformOrm } from "../../../tenants/tenant-directory";

export type ProcessRoleRow = typeof processRoles.$inferSelect;

/** A role as the API shows it; the stored "" scope is a tenant-wide role, shown as processKey null. */
export function roleView(r: ProcessRoleRow, members: RoleMember[]) {
  return {
    id: r.id,
    processKey: r.processKey === "" ? null : r.processKey,
    key: r.key,
    name: r.name,
    createdAt: r.createdAt,
    members,
  };
}

export interface RoleMember {
  userId: string;
  email: string;
  firstName: string;
  lastName: string | null;
}

/** Members of the given roles who are still members of the tenant, grouped by role id. */
export function membersByRole(db: PlatformOrm, tenantId: string, roleIds: string[]): Map<string, RoleMember[]> {
  const out = new Map<string, RoleMember[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return out;
  const rows = db
    .select({
      roleId: processRoleMembers.roleId,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(processRoleMembers)
    .innerJoin(users, eq(users.id, processRoleMembers.userId))
    .innerJoin(memberships, and(eq(memberships.userId, processRoleMembers.userId), eq(memberships.tenantId, tenantId)))
    .where(and(eq(processRoleMembers.tenantId, tenantId), inArray(processRoleMembers.roleId, roleIds)))
    .orderBy(asc(users.email))
    .all();
  for (const { roleId, ...m } of rows) out.get(roleId)?.push(m);
  return out;
}

/** Roles of a tenant (optionally of one process, tenant-wide ones included) with their members. */
export function rolesWithMembers(db: PlatformOrm, tenantId: string, processKey?: string) {
  const where =
    processKey === undefined
      ? eq(processRoles.tenantId, tenantId)
      : and(eq(processRoles.tenantId, tenantId), inArray(processRoles.processKey, [processKey, ""]));
  const roles = db
    .select()
    .from(processRoles)
    .where(where)
    .orderBy(asc(processRoles.processKey), asc(processRoles.key))
    .all();
  const members = membersByRole(
    db,
    tenantId,
    roles.map((r) => r.id),
  );
  return roles.map((r) => roleView(r, members.get(r.id) ?? []));
}
