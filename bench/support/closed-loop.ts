// A closed-loop load driver: `workers` concurrent loops each run `step` back to back for `seconds`.

export interface LoopResult {
  ops: number;
  perSecond: number;
  p50: number;
  p99: number;
  p999: number;
  errors: number;
}

/** Runs `step` in `workers` concurrent loops for `seconds`, or until `until` settles; latencies are per step in ms. */
export async function closedLoop(
  step: (worker: number) => Promise<void>,
  opts: { workers: number; seconds: number; until?: Promise<unknown> },
): Promise<LoopResult> {
  const latencies: number[] = [];
  let errors = 0;
  let stopped = false;
  opts.until?.finally(() => (stopped = true));
  const end = opts.until ? Number.POSITIVE_INFINITY : performance.now() + opts.seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: opts.workers }, async (_, w) => {
      while (!stopped && performance.now() < end) {
        const t0 = performance.now();
        try {
          await step(w);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    ops: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: pct(0.5),
    p99: pct(0.99),
    p999: pct(0.999),
    errors,
  };
}

export const fmt = (r: LoopResult) =>
  `${r.perSecond.toFixed(0).padStart(7)}/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   p99.9 ${r.p999.toFixed(1).padStart(6)} ms   errors ${r.errors}`;
