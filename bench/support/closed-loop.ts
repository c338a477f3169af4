// A closed-loop load driver: `workers` concurrent loops each run `step` back to back for `seconds`.

export interface LoopResult {
  ops: number;
  perSecond: number;
  p50: number;
  p99: number;
  p999: number;
  errors: number;
}

/** What the loops of one step recorded: each completed step's latency in ms, the errors, the seconds spent. */
interface Samples {
  latencies: number[];
  errors: number;
  seconds: number;
}

/** Runs `step` in `workers` concurrent loops for `seconds` (or until `until` settles), adding to `into`. */
async function runLoops(
  step: (worker: number) => Promise<void>,
  opts: { workers: number; seconds: number; until?: Promise<unknown> },
  into: Samples,
): Promise<void> {
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
          into.latencies.push(performance.now() - t0);
        } catch {
          into.errors++;
        }
      }
    }),
  );
  into.seconds += (performance.now() - start) / 1000;
}

function resultOf({ latencies, errors, seconds }: Samples): LoopResult {
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    ops: latencies.length,
    perSecond: latencies.length / seconds,
    p50: pct(0.5),
    p99: pct(0.99),
    p999: pct(0.999),
    errors,
  };
}

/** Runs `step` in `workers` concurrent loops for `seconds`, or until `until` settles; latencies are per step in ms. */
export async function closedLoop(
  step: (worker: number) => Promise<void>,
  opts: { workers: number; seconds: number; until?: Promise<unknown> },
): Promise<LoopResult> {
  const samples: Samples = { latencies: [], errors: 0, seconds: 0 };
  await runLoops(step, opts, samples);
  return resultOf(samples);
}

/**
 * Runs several steps in turn, `rounds` times each for `seconds / rounds`, and gives each step's result over all its
 * slices. Compared side by side this way, the steps share the machine's drift (a VM's speed changes between minutes),
 * where one long phase after another would put the drift into their ratio.
 */
export async function closedLoopsInTurn(
  steps: ((worker: number) => Promise<void>)[],
  opts: { workers: number; seconds: number; rounds: number },
): Promise<LoopResult[]> {
  const samples: Samples[] = steps.map(() => ({ latencies: [], errors: 0, seconds: 0 }));
  for (let r = 0; r < opts.rounds; r++)
    for (const [i, step] of steps.entries())
      await runLoops(step, { workers: opts.workers, seconds: opts.seconds / opts.rounds }, samples[i]);
  return samples.map(resultOf);
}

export const fmt = (r: LoopResult) =>
  `${r.perSecond.toFixed(0).padStart(7)}/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   p99.9 ${r.p999.toFixed(1).padStart(6)} ms   errors ${r.errors}`;
