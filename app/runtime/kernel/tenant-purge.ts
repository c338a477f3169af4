import { deleteTenantBatch, tenantTables } from "../../../db/tenant-rows";
import type { Kernel } from "./kernel";

/**
 * Deletes a dropped tenant's rows from the engine database, one batch per call (the drop job calls it until it
 * answers 0). Jobs and event subscriptions go first so nothing of the tenant fires while the rest is deleted; a
 * command that was running meanwhile and wrote a row is caught by a later call, which scans every table again. Each
 * batch waits first while the checkpointer holds the engine's writes, as the history cleanup's batches do.
 */
export function createTenantPurge(kernel: Kernel) {
  const { db } = kernel;
  let tables: string[] | null = null;
  return async (tenantId: string, limit: number): Promise<number> => {
    await kernel.writable();
    tables ??= (() => {
      const all = tenantTables(db);
      const first = ["jobs", "event_subscriptions"].filter((t) => all.includes(t));
      return [...first, ...all.filter((t) => !first.includes(t))];
    })();
    // The start lookups the kernel keeps name the tenant's definitions: gone with their rows.
    kernel.definitions.forgetAll();
    return deleteTenantBatch(db, tables, tenantId, limit);
  };
}
