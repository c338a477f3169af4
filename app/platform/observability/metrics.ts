import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { JobFigures } from "../../runtime/kernel/job-executor";
import type { ScriptPoolStats } from "../../runtime/scripting/script-pool";
import { createRequestHistogram } from "./request-histogram";
import { engineDbPath, platformDbPath, tenantDbPath } from "../../../tenants/paths";

export interface MetricsSources {
  dataDir: string;
  jobFigures(): JobFigures;
  openTenantDbs(): number;
  /** Engine commands computed again after a revision conflict, since start. */
  commandRecomputations(): number;
  /** Ended instances past their time-to-live not yet removed (capped count). */
  historyBacklog(): number;
  /** The script pool's workers and counters (app/runtime/scripting/script-pool.ts). */
  scriptPool(): ScriptPoolStats;
}

/** Bytes of a database's write-ahead log (0 when there is none: checkpointed and truncated, or never written). */
function walBytes(dbPath: string): number {
  try {
    return statSync(`${dbPath}-wal`).size;
  } catch {
    return 0;
  }
}

function tenantWalBytes(dataDir: string): number {
  const dir = join(dataDir, "tenants");
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const id of readdirSync(dir)) total += walBytes(tenantDbPath(dataDir, id));
  return total;
}

/**
 * The service's Prometheus registry (one per platform, so several platforms in one test process never share series).
 * Gauges read their figures when scraped; only the request histogram and the checkpoint timer are fed as things happen.
 */
export function createMetrics(src: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const http = createRequestHistogram(registry);
  const checkpoint = new Histogram({
    name: "sqlite_checkpoint_duration_seconds",
    help: "Time of WAL checkpoints run by the service",
    labelNames: ["db"] as const,
    buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const cleanupRemoved = new Counter({
    name: "history_cleanup_removed_total",
    help: "What the history cleanup removed: ended process instances, ended cases, and all their rows (theirs included)",
    labelNames: ["what"] as const,
    registers: [registry],
  });
  const cleanupBatch = new Histogram({
    name: "history_cleanup_batch_duration_seconds",
    help: "Time of one history cleanup batch (one transaction; requests wait at most this long)",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [registry],
  });
  let figures: JobFigures | null = null;
  const jobs = (pick: (f: JobFigures) => number) =>
    function (this: Gauge) {
      figures ??= src.jobFigures();
      this.set(pick(figures));
    };
  const gauge = (name: string, help: string, collect: (this: Gauge) => void) =>
    new Gauge({ name, help, registers: [registry], collect });
  gauge(
    "jobs_due",
    "Jobs (timers included) due now and not running",
    jobs((f) => f.due),
  );
  gauge(
    "jobs_lag_seconds",
    "How long the oldest due job or timer has waited",
    jobs((f) => f.lagMs / 1000),
  );
  gauge(
    "jobs_running",
    "Jobs running now",
    jobs((f) => f.running),
  );
  gauge(
    "jobs_dead_letters",
    "Jobs whose retries ran out (incidents)",
    jobs((f) => f.deadLetters),
  );
  gauge(
    "jobs_failures",
    "Failed job attempts since start",
    jobs((f) => f.failures),
  );
  gauge(
    "history_cleanup_backlog",
    "Ended process instances and cases past their history time-to-live (counted up to 10,000)",
    function () {
      this.set(src.historyBacklog());
    },
  );
  gauge(
    "engine_command_recomputations",
    "Engine commands computed again since start because their instance moved meanwhile (revision conflicts)",
    function () {
      this.set(src.commandRecomputations());
    },
  );
  new Gauge({
    name: "script_pool",
    help: "Model JavaScript workers: busy now, scripts waiting, workers killed at the deadline and recycled past the memory bound since start",
    labelNames: ["what"] as const,
    registers: [registry],
    collect() {
      const p = src.scriptPool();
      for (const what of ["workers", "busy", "queued", "killed", "recycled"] as const) this.set({ what }, p[what]);
    },
  });
  gauge("tenant_databases_open", "Tenant database files open now (bounded by MAX_OPEN_TENANT_DBS)", function () {
    this.set(src.openTenantDbs());
  });
  new Gauge({
    name: "sqlite_wal_bytes",
    help: "Size of the write-ahead logs (tenants: all tenant files together)",
    labelNames: ["db"] as const,
    registers: [registry],
    collect() {
      this.set({ db: "platform" }, walBytes(platformDbPath(src.dataDir)));
      this.set({ db: "engine" }, walBytes(engineDbPath(src.dataDir)));
      this.set({ db: "tenants" }, tenantWalBytes(src.dataDir));
    },
  });

  return {
    contentType: registry.contentType,
    recordRequest(method: string, route: string, status: number, seconds: number) {
      http.observe(method, route, status, seconds);
    },
    recordCleanup(batch: { instances: number; cases: number; rows: number }, seconds: number) {
      cleanupRemoved.inc({ what: "instances" }, batch.instances);
      cleanupRemoved.inc({ what: "cases" }, batch.cases);
      cleanupRemoved.inc({ what: "rows" }, batch.rows);
      cleanupBatch.observe(seconds);
    },
    recordCheckpoint(db: string, seconds: number) {
      checkpoint.observe({ db }, seconds);
    },
    async text(): Promise<string> {
      figures = null;
      return registry.metrics();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
