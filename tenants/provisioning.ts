import type { TenantDbCache } from "./tenant-db-cache";
import type { TenantDirectory } from "./tenant-directory";

/** A step that fills a freshly migrated tenant (DMN templates, process templates); must be idempotent. */
export type TenantSeeder = (tenantId: string) => void | Promise<void>;

export interface ProvisioningDeps {
  cache: TenantDbCache;
  directory: TenantDirectory;
  seeders: TenantSeeder[];
  log: (message: string) => void;
}

/** Creates, migrates and seeds a tenant's storage, then marks it ACTIVE, or FAILED with the error recorded. */
export async function provisionTenant(deps: ProvisioningDeps, tenantId: string): Promise<boolean> {
  try {
    deps.cache.create(tenantId);
    for (const seed of deps.seeders) await seed(tenantId);
    deps.directory.setStatus(tenantId, "ACTIVE", null);
    deps.log(`tenant ${tenantId} provisioned`);
    return true;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    deps.directory.setStatus(tenantId, "FAILED", message);
    deps.log(`tenant ${tenantId} provisioning failed: ${message}`);
    return false;
  }
}

/** One pass of the background sweep: retries failed provisioning and degraded migrations. */
export async function sweepTenants(deps: ProvisioningDeps): Promise<{ recovered: string[] }> {
  const recovered = deps.cache.retryDegraded();
  for (const t of deps.directory.all()) {
    if (t.status === "FAILED" && (await provisionTenant(deps, t.id))) recovered.push(t.id);
  }
  return { recovered };
}
