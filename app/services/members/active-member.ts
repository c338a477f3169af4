import { eq } from "drizzle-orm";
import { users } from "../../../db/platform/schema";
import type { PlatformOrm } from "../../../tenants/tenant-directory";
import { rolesIn } from "../auth/sessions";

/**
 * An active user holding a membership of the tenant, or a super admin (who belongs to every tenant). Models name
 * assignees and candidates freely, so a name from a model is not necessarily a user: ask here before acting on it.
 */
export function isActiveMember(platformDb: PlatformOrm, tenantId: string, userId: string): boolean {
  const user = platformDb.select().from(users).where(eq(users.id, userId)).get();
  return !!user?.active && rolesIn({ platformDb }, user, tenantId) !== null;
}
