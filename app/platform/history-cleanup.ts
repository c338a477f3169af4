import type { CleanupBatch, HistoryCleanup } from "../runtime/kernel/history-cleanup";

/** HISTORY_CLEANUP_WINDOW: "HH:MM-HH:MM" in UTC (may wrap past midnight), or "off"; null: never runs by itself. */
export interface CleanupSettings {
  window: { from: number; to: number } | null;
  batchSize: number;
}

const minutesOf = (hhmm: string, v: string): number => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  const minutes = m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
  if (!(minutes >= 0 && minutes <= 24 * 60) || Number(m?.[2]) > 59)
    throw new Error(`HISTORY_CLEANUP_WINDOW must be HH:MM-HH:MM (UTC) or off, got '${v}'`);
  return minutes;
};

export function cleanupSettingsOf(env: Record<string, string | undefined>): CleanupSettings {
  const v = env.HISTORY_CLEANUP_WINDOW ?? "01:00-05:00";
  const batchSize = Number(env.HISTORY_CLEANUP_BATCH_SIZE || 50);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    throw new Error(`HISTORY_CLEANUP_BATCH_SIZE must be a whole number from 1 to 10000, got '${batchSize}'`);
  if (v === "off") return { window: null, batchSize };
  const [from = "", to = ""] = v.split("-");
  return { window: { from: minutesOf(from, v), to: minutesOf(to, v) }, batchSize };
}

export function inWindow(w: CleanupSettings["window"], now: number): boolean {
  if (!w) return false;
  const d = new Date(now);
  const m = d.getUTCHours() * 60 + d.getUTCMinutes();
  return w.from <= w.to ? m >= w.from && m < w.to : m >= w.from || m < w.to;
}

export interface CleanupLoopDeps {
  cleanup: HistoryCleanup;
  settings: CleanupSettings;
  now: () => number;
  /** Told after each batch that removed something (metrics, the tenant databases' rows). */
  onBatch(batch: CleanupBatch, seconds: number): void;
  log(message: string): void;
}

/** A batch should hold the event loop about this long at most: the size shrinks past it and grows back below half. */
export const BATCH_BUDGET_MS = 10;

/** The next batch size: halved after a batch over the budget, grown by a quarter after one under half of it. */
export function nextBatchSize(size: number, ms: number, max: number): number {
  if (ms > BATCH_BUDGET_MS) return Math.max(1, Math.floor(size / 2));
  if (ms < BATCH_BUDGET_MS / 2) return Math.min(max, size + Math.ceil(size / 4));
  return size;
}

/**
 * Runs the history cleanup inside the off-peak window: one small batch (one short transaction) at a time, yielding to
 * the event loop between batches so requests wait at most one batch; checked every `tickMs` outside work. The batch
 * size (HISTORY_CLEANUP_BATCH_SIZE at most) follows how long batches take, so that one stays near BATCH_BUDGET_MS
 * whatever the instances hold and however busy the machine is.
 */
export function createCleanupLoop(deps: CleanupLoopDeps) {
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<number> | null = null;
  const yieldToRequests = () => new Promise((r) => setTimeout(r, 0));

  /** Batches until nothing is due (or, with `whileInWindow`, the window closes); resolves with the instances and cases removed. */
  const drain = async (whileInWindow: boolean): Promise<number> => {
    let removed = 0;
    let size = deps.settings.batchSize;
    for (;;) {
      if (whileInWindow && !inWindow(deps.settings.window, deps.now())) return removed;
      await deps.cleanup.whenWritable();
      const t0 = performance.now();
      const batch = deps.cleanup.runBatch(size);
      const ms = performance.now() - t0;
      const n = batch.instances + batch.cases;
      if (n === 0) return removed;
      removed += n;
      size = nextBatchSize(size, ms, deps.settings.batchSize);
      deps.onBatch(batch, ms / 1000);
      await yieldToRequests();
    }
  };
  const run = (whileInWindow: boolean) => {
    running ??= drain(whileInWindow)
      .catch((e) => {
        deps.log(`[history] cleanup failed: ${e instanceof Error ? e.message : e}`);
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    /** Removes everything due now whatever the window (tests, the benchmark, an operator's script). */
    runNow: () => run(false),
    start({ tickMs }: { tickMs: number }) {
      timer ??= setInterval(() => {
        if (!running && inWindow(deps.settings.window, deps.now())) void run(true);
      }, tickMs);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      while (running) await running;
    },
  };
}

export type CleanupLoop = ReturnType<typeof createCleanupLoop>;
