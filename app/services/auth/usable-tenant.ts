import type { TenantRecord } from "../../../tenants/tenant-directory";
import type { PlatformCtx } from "../context";
import { ForbiddenError, ServiceUnavailableError, UnauthorizedError } from "../errors";

/**
 * The tenant a request acts in, once authentication named it: gone → 401, CREATING/FAILED → 503,
 * SUSPENDED/DEACTIVATED → 403. Shared by every /a/** credential (token, API key, MCP Basic).
 */
export function usableTenant(ctx: Pick<PlatformCtx<"tenants">, "tenants">, tenantId: string): TenantRecord {
  const tenant = ctx.tenants.get(tenantId);
  if (!tenant) throw new UnauthorizedError("Tenant no longer exists");
  if (tenant.status === "CREATING" || tenant.status === "FAILED") {
    throw new ServiceUnavailableError(`Tenant ${tenant.slug} is not available (status ${tenant.status})`);
  }
  if (tenant.status !== "ACTIVE") throw new ForbiddenError(`Tenant ${tenant.slug} is ${tenant.status.toLowerCase()}`);
  return tenant;
}
