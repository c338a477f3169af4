import { eq, isNull, sql } from "drizzle-orm";
import { tenantDrops, tenants } from "../../../db/platform/schema";
import { deleteTenantBatch, tenantTables } from "../../../db/tenant-rows";
import type { PlatformCtx } from "../context";

export type DropPhase = "ENGINE" | "PLATFORM" | "FILES" | "DONE";
export type DropCtx = PlatformCtx<"platformDb" | "tenants" | "tenantStorage" | "log">;

/** Platform tables never emptied by a drop: the tenant's record and the record of its drop stay. */
const KEPT = ["tenants", "tenant_drops"];

/**
 * Runs (or resumes) the drop of one tenant to its end: the tenant's rows in the engine database, then in the
 * platform database, in batches, then its folder; last, in one transaction, the tenant turns DROPPED and the job
 * finishes. The tenant_drops row is the job: its phase says where to resume after a crash, and every step is
 * idempotent (a batch deletes what is still there; removing a removed folder does nothing). Between batches the
 * event loop serves requests. `stopping()` ends the run early (shutdown); the next start resumes it.
 */
export async function runDrop(ctx: DropCtx, tenantId: string, stopping: () => boolean = () => false): Promise<void> {
  const db = ctx.platformDb;
  const now = () => new Date(ctx.clock.now()).toISOString();
  const job = () => db.select().from(tenantDrops).where(eq(tenantDrops.tenantId, tenantId)).get();
  const start = job();
  if (!start || start.finishedAt) return;
  db.update(tenantDrops)
    .set({ attempts: sql`${tenantDrops.attempts} + 1`, updatedAt: now() })
    .where(eq(tenantDrops.tenantId, tenantId))
    .run();
  const limit = ctx.tenantStorage.dropBatchSize;
  const platformTables = tenantTables(db.$client, KEPT);
  const advance = (phase: DropPhase, deleted = 0) =>
    db
      .update(tenantDrops)
      .set({ phase, deletedRows: sql`${tenantDrops.deletedRows} + ${deleted}`, updatedAt: now(), lastError: null })
      .where(eq(tenantDrops.tenantId, tenantId))
      .run();
  try {
    let phase = start.phase as DropPhase;
    while (phase !== "DONE") {
      if (stopping()) return;
      if (phase === "ENGINE") {
        const n = await ctx.tenantStorage.purgeEngineBatch(tenantId, limit);
        if (n === 0) phase = "PLATFORM";
        advance(phase, n);
      } else if (phase === "PLATFORM") {
        // The batch and its count commit together.
        db.$client.transaction(() => {
          const n = deleteTenantBatch(db.$client, platformTables, tenantId, limit);
          if (n === 0) phase = "FILES";
          advance(phase, n);
        })();
      } else {
        ctx.tenantStorage.removeFiles(tenantId);
        db.$client.transaction(() => {
          db.update(tenants)
            .set({ status: "DROPPED", errorMessage: null, updatedAt: now() })
            .where(eq(tenants.id, tenantId))
            .run();
          db.update(tenantDrops)
            .set({ phase: "DONE", finishedAt: now(), updatedAt: now() })
            .where(eq(tenantDrops.tenantId, tenantId))
            .run();
        })();
        ctx.tenants.refresh(tenantId);
        phase = "DONE";
        ctx.log(`[tenants] tenant ${tenantId} dropped`);
      }
      await new Promise((r) => setTimeout(r, 0));
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    db.update(tenantDrops)
      .set({ lastError: message, updatedAt: now() })
      .where(eq(tenantDrops.tenantId, tenantId))
      .run();
    ctx.log(`[tenants] drop of tenant ${tenantId} failed, resumed at the next start or sweep: ${message}`);
  }
}

/** The drops not finished (after a crash, or a failure): the platform resumes them at start and on each sweep. */
export function unfinishedDrops(ctx: Pick<DropCtx, "platformDb">): string[] {
  return ctx.platformDb
    .select({ id: tenantDrops.tenantId })
    .from(tenantDrops)
    .where(isNull(tenantDrops.finishedAt))
    .all()
    .map((r) => r.id);
}

/** The progress SA sees on the tenant. */
export function dropProgress(ctx: Pick<DropCtx, "platformDb">, tenantId: string) {
  const row = ctx.platformDb.select().from(tenantDrops).where(eq(tenantDrops.tenantId, tenantId)).get();
  if (!row) return undefined;
  return {
    state: row.finishedAt ? ("FINISHED" as const) : ("RUNNING" as const),
    phase: row.phase as DropPhase,
    deletedRows: row.deletedRows,
    attempts: row.attempts,
    requestedAt: row.requestedAt,
    finishedAt: row.finishedAt ?? undefined,
    lastError: row.lastError ?? undefined,
  };
}
