import type { PlatformCtx } from "../context";
import { findTenant } from "../admin-tenants/tenants";
import { rolesWithMembers } from "../process-roles/store";

/** GET /admin/tenants/{id}/process-roles (SA): every role of that tenant with its members; unknown tenant 404. */
export function listTenantProcessRoles({
  ctx,
  input: { tenantId },
}: {
  ctx: PlatformCtx<"platformDb" | "tenants">;
  input: { tenantId: string };
}) {
  findTenant(ctx, tenantId);
  return rolesWithMembers(ctx.platformDb, tenantId);
}
