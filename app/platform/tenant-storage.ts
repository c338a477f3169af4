import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tenantDir } from "../../tenants/paths";
import { createTenantPurge } from "../runtime/kernel/tenant-purge";
import type { PlatformPorts, TenantStorage } from "../services/context";
import { runDrop, unfinishedDrops } from "../services/admin-tenants/drop-job";
import { MANIFEST, snapshotTree } from "./backup/snapshot";
import { tarStream } from "./backup/tar";
import type { PlatformCore } from "./platform";

export const TENANT_EXPORT_README = "tenant.json";

/**
 * The tenant-storage port: end of life and export of one tenant's storage. Drops run in the background, at most one
 * per tenant at a time, tracked by the platform (its idle() and stop() wait for them); `resume` restarts the
 * unfinished ones (at start and on each sweep), `halt` makes the running ones stop after their current batch.
 */
export function createTenantStorage(
  p: PlatformCore,
  ports: () => PlatformPorts,
  track: (work: Promise<unknown>) => void,
): TenantStorage & { resume(): void; halt(): void } {
  const purge = createTenantPurge(p.kernel);
  const running = new Set<string>();
  let halted = false;
  const storage = {
    dropBatchSize: p.config.tenantDropBatchSize,
    purgeEngineBatch: purge,
    closeHandle: (tenantId: string) => p.tenantDbs.dropHandle(tenantId),
    removeFiles(tenantId: string) {
      p.tenantDbs.dropHandle(tenantId);
      rmSync(tenantDir(p.config.dataDir, tenantId), { recursive: true, force: true });
    },
    startDrop(tenantId: string) {
      if (halted || running.has(tenantId)) return;
      running.add(tenantId);
      const ctx = {
        ...ports(),
        actor: null,
        channel: "SYSTEM" as const,
        requestId: `drop-${tenantId}`,
        clock: p.clock,
      };
      track(runDrop(ctx, tenantId, () => halted).finally(() => running.delete(tenantId)));
    },
    exportArchive(tenant: { id: string; slug: string; name: string; status: string }, exportedAt: string) {
      const tmp = mkdtempSync(join(tmpdir(), "tenant-export-"));
      try {
        const manifest = snapshotTree(tenantDir(p.config.dataDir, tenant.id), join(tmp, "export"));
        const about = {
          tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name, status: tenant.status },
          exportedAt,
          contains: "the tenant's own database (tenant.sqlite, an online snapshot) and its stored files (files/)",
          notContained:
            "process and case instances, tasks, jobs, history and deployed definitions: they live in the shared engine database (isolation rule 7)",
        };
        writeFileSync(join(tmp, "export", TENANT_EXPORT_README), JSON.stringify(about, null, 2));
        const paths = [
          TENANT_EXPORT_README,
          MANIFEST,
          ...manifest.databases.map((d) => d.path),
          ...manifest.files.map((f) => f.path),
        ];
        return tarStream(join(tmp, "export"), paths, () => rmSync(tmp, { recursive: true, force: true }));
      } catch (e) {
        rmSync(tmp, { recursive: true, force: true });
        throw e;
      }
    },
    resume() {
      for (const id of unfinishedDrops(ports())) storage.startDrop(id);
    },
    halt() {
      halted = true;
    },
  };
  return storage;
}
