import type { Database } from "bun:sqlite";
import type { TenantDb, TenantSecrets } from "../../../tenants/tenant-db-cache";

/**
 * Secret tenant variables (IMAP passwords of inboxes, secret robot parameters, data source credentials: all refer to
 * them) are stored sealed with the service's secret box, as webhook and SSO secrets are: the tenant file, a backup or
 * a tenant export alone does not reveal them. A sealed value carries this prefix; plain values never get it written
 * (every secret is sealed on write, and `sealPlainSecrets` seals what was stored before).
 */
const SEALED = "sealed:";

export const sealSecret = (db: Pick<TenantDb, "secrets">, plain: string) => SEALED + db.secrets.seal(plain);

/** The stored value as it is used: a sealed one opened, a plain one as it is. */
export function storedValue(db: Pick<TenantDb, "secrets">, value: string): string {
  return value.startsWith(SEALED) ? db.secrets.open(value.slice(SEALED.length)) : value;
}

/**
 * The migration of secrets stored before sealing existed, run on each tenant file when the service first opens it
 * (after its schema migrations): every secret variable not yet sealed is sealed, in one transaction, and the file is
 * rebuilt so no free page keeps the plaintext. Answers how many.
 */
export function sealPlainSecrets(sqlite: Database, secrets: TenantSecrets): number {
  const plain = sqlite
    .query<{ name: string; value: string }, [string]>(
      "SELECT name, value FROM tenant_variables WHERE secret = 1 AND substr(value, 1, length(?1)) <> ?1",
    )
    .all(SEALED);
  if (!plain.length) return 0;
  const update = sqlite.query("UPDATE tenant_variables SET value = ? WHERE name = ? AND value = ?");
  sqlite.transaction(() => {
    for (const r of plain) update.run(SEALED + secrets.seal(r.value), r.name, r.value);
  })();
  // The old pages (and WAL frames) still hold the plaintext: rebuild the file and empty the WAL, once. Best effort:
  // another process reading the file (a backup) may hold it; the next start tries again only if a secret is plain.
  try {
    sqlite.run("VACUUM");
    sqlite.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
  } catch {
    // the values are sealed either way; backups (VACUUM INTO) never copy free pages
  }
  return plain.length;
}
