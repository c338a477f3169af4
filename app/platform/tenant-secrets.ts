import type { Database } from "bun:sqlite";
import { runMigrations } from "../../db/migrate";
import type { TenantDbCache, TenantMigrator } from "../../tenants/tenant-db-cache";
import { createSecretBox } from "../services/secret-box";
import { sealPlainSecrets } from "../services/tenant-variables/sealing";

/**
 * The box of the tenants' secrets (secret tenant variables) and the migrator that seals those stored before sealing
 * existed: the schema first, then the sealing, once per file and process start.
 */
export function tenantSecretsOf(jwtSecret: string, migrator: TenantMigrator | undefined, log: (m: string) => void) {
  const secrets = createSecretBox(jwtSecret, "tenant-secrets");
  const schema = migrator ?? ((db: Database) => runMigrations(db, "tenant"));
  const sealingMigrator: TenantMigrator = (sqlite, tenantId) => {
    schema(sqlite, tenantId);
    const n = sealPlainSecrets(sqlite, secrets);
    if (n) log(`[tenants] tenant ${tenantId}: ${n} secret variable(s) sealed at rest`);
  };
  return { secrets, migrator: sealingMigrator };
}

/**
 * Opens each tenant file once after start, one per turn of the event loop, so that its secrets stored before sealing
 * are sealed (by the migrator) even if nobody uses the tenant before the next backup.
 */
export async function sealEveryTenant(platformSqlite: Database, tenantDbs: TenantDbCache, running: () => boolean) {
  const ids = platformSqlite
    .query<{ id: string }, []>("SELECT id FROM tenants WHERE status IN ('ACTIVE', 'SUSPENDED', 'DEACTIVATED')")
    .all();
  for (const { id } of ids) {
    if (!running()) return;
    try {
      tenantDbs.get(id);
    } catch {
      // a missing or degraded file is reported where it is used
    }
    await new Promise((r) => setTimeout(r, 0));
  }
}
