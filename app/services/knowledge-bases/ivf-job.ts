import type { Database } from "bun:sqlite";
import { ivfDue, maintainIvf } from "../../ai/knowledge/ivf-maintain";
import { readRagSettings } from "../../ai/knowledge/rag-settings";
import type { ServiceJob } from "../../runtime/kernel/service-jobs";
import type { TenantCtx } from "../context";
import { KB_IVF_JOB } from "./access";

export type KbIvfCtx = TenantCtx<"db" | "platformDb" | "serviceJobs">;

const sqliteOf = (ctx: KbIvfCtx, global: boolean) => (global ? ctx.platformDb.$client : ctx.db.sqlite);

/**
 * Queues the `svc:kb-ivf` job of a base when its coarse quantiser is due (the base reached the threshold, doubled
 * since the last training, or shrank well below it); one job per base at a time.
 */
export async function queueIvfIfDue(ctx: KbIvfCtx, db: Database, baseId: string, global: boolean): Promise<void> {
  const { ivfThreshold } = readRagSettings(ctx.platformDb.$client);
  if (!ivfDue(db, baseId, ivfThreshold)) return;
  await ctx.serviceJobs.enqueue(
    ctx.tenant.id,
    KB_IVF_JOB,
    { baseId, global },
    { retries: 3, backoffMs: 30_000, unlessPending: { field: "baseId", value: baseId } },
  );
}

/**
 * The `svc:kb-ivf` job: trains (in a Worker) and fills a new generation of a base's quantiser slice by slice, or
 * drops it; queries keep using the previous generation until the new one is complete. A rerun resumes the fill.
 */
export async function runIvfJob({ ctx, input }: { ctx: KbIvfCtx; input: ServiceJob }): Promise<void> {
  const data = input.data as { baseId: string; global?: boolean };
  const { ivfThreshold } = readRagSettings(ctx.platformDb.$client);
  await maintainIvf(sqliteOf(ctx, data.global === true), data.baseId, {
    threshold: ivfThreshold,
    nowIso: () => new Date(ctx.clock.now()).toISOString(),
  });
}
