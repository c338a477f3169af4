import type { Platform } from "../../platform/platform";
import { getTenant } from "../admin-tenants/tenants";
import { rolesWithMembers } from "../process-roles/store";

/** GET /admin/tenants/{id}/process-roles (SA): every role of that tenant with its members; unknown tenant 404. */
export function listTenantProcessRoles(p: Platform, tenantId: string) {
  getTenant(p, tenantId);
  return rolesWithMembers(p.platformDb, tenantId);
}
