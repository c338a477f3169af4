import { and, asc, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import { memberships, processRoleMembers, processRoles } from "../../../db/platform/schema";
import type { PlatformOrm } from "../../../tenants/tenant-directory";
import { prepared } from "../prepared";

/*
 * Lookups the task and instance services use: candidate groups of tasks name process roles by key. Only users who are
 * still members of the tenant hold its roles, so removing a membership withdraws the roles at once.
 */

/** Role assignments of the tenant whose user is still a member of it, narrowed by `extra`. */
function grants(platformDb: PlatformOrm, tenantId: string | Placeholder, ...extra: (SQL | undefined)[]) {
  return platformDb
    .select({ processKey: processRoles.processKey, key: processRoles.key, userId: processRoleMembers.userId })
    .from(processRoleMembers)
    .innerJoin(processRoles, eq(processRoles.id, processRoleMembers.roleId))
    .innerJoin(
      memberships,
      and(eq(memberships.userId, processRoleMembers.userId), eq(memberships.tenantId, processRoleMembers.tenantId)),
    )
    .where(and(eq(processRoleMembers.tenantId, tenantId), eq(processRoles.tenantId, tenantId), ...extra));
}

/** Keys of every process role the user holds in the tenant (tenant-wide and per process alike), distinct and sorted. */
export function processRolesOfUser(platformDb: PlatformOrm, tenantId: string, userId: string): string[] {
  return [...new Set(processRoleGrantsOfUser(platformDb, tenantId, userId).map((g) => g.key))].sort();
}

/** The same with scopes: `processKey` null for a tenant-wide role, for callers that match roles to one process. */
export function processRoleGrantsOfUser(
  platformDb: PlatformOrm,
  tenantId: string,
  userId: string,
): { processKey: string | null; key: string }[] {
  // Prepared once per database: every inbox and visibility check of a user who does not see the whole tenant asks.
  return prepared(platformDb, "processRoleGrantsOfUser", () =>
    grants(platformDb, sql.placeholder("tenantId"), eq(processRoleMembers.userId, sql.placeholder("userId")))
      .orderBy(asc(processRoles.processKey), asc(processRoles.key))
      .prepare(),
  )
    .all({ tenantId, userId })
    .map((g) => ({ processKey: g.processKey === "" ? null : g.processKey, key: g.key }));
}

/**
 * Ids of the users holding role `roleKey` in the tenant, distinct and sorted. With `processKey`, only that process's
 * role of that key and the tenant-wide one count; without it, every role of that key.
 */
export function usersInRole(platformDb: PlatformOrm, tenantId: string, roleKey: string, processKey?: string): string[] {
  const scope = processKey === undefined ? undefined : inArray(processRoles.processKey, [processKey, ""]);
  const rows = grants(platformDb, tenantId, eq(processRoles.key, roleKey), scope).all();
  return [...new Set(rows.map((r) => r.userId))].sort();
}
