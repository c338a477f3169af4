import type { PlatformCtx } from "../context";
import { NotFoundError } from "../errors";

export type TenantDefinitionsCtx = PlatformCtx<"tenants" | "processRuntime">;

/** GET /admin/tenants/{id}/definitions (SA): the definitions of any tenant, read from outside it. */
export function listTenantDefinitions({ ctx, input }: { ctx: TenantDefinitionsCtx; input: { tenantId: string } }) {
  const tenant = ctx.tenants.get(input.tenantId);
  if (!tenant) throw new NotFoundError(`Tenant ${input.tenantId} not found`);
  return ctx.processRuntime.listDefinitions(tenant.id);
}
