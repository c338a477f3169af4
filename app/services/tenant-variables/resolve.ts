import { eq, inArray } from "drizzle-orm";
import { tenantVariables } from "../../../db/tenant/schema";
import type { TenantDb } from "../../../tenants/tenant-db-cache";
import { storedValue } from "./sealing";

/** The value of a tenant variable, secrets included (for data sources and robots, never for responses); null if absent. */
export function resolveTenantVariable(tenantDb: TenantDb, name: string): string | null {
  const row = tenantDb.orm
    .select({ value: tenantVariables.value })
    .from(tenantVariables)
    .where(eq(tenantVariables.name, name))
    .get();
  return row ? storedValue(tenantDb, row.value) : null;
}

/** Which of these names are secret variables (to decide who may reference them). */
export function secretNamesAmong(tenantDb: TenantDb, names: string[]): string[] {
  if (names.length === 0) return [];
  return tenantDb.orm
    .select({ name: tenantVariables.name, secret: tenantVariables.secret })
    .from(tenantVariables)
    .where(inArray(tenantVariables.name, names))
    .all()
    .filter((v) => v.secret)
    .map((v) => v.name);
}
