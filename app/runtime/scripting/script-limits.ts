/** What one evaluation of a model's JavaScript may use, and how the pool of script workers is shared (docs/limits.md). */
export interface ScriptLimits {
  /** Interpretable steps: QuickJS's interrupt handler stops the script past this many ms (checked between steps). */
  cpuMs: number;
  /** Wall clock from the worker's start of the evaluation: past it the worker is terminated, native calls included. */
  deadlineMs: number;
  /** QuickJS heap of one evaluation. */
  memoryBytes: number;
  stackBytes: number;
  /** The whole WebAssembly memory of a worker's QuickJS module: it cannot grow past this. */
  workerMemoryBytes: number;
  /** A worker whose WebAssembly memory grew past this after an evaluation is replaced by a fresh one. */
  recycleBytes: number;
  /** One value a script writes (or its result), as JSON: the request body limit, which bounds a request's variables. */
  valueBytes: number;
}

export const SCRIPT_LIMITS: ScriptLimits = {
  cpuMs: 80,
  deadlineMs: 1000,
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 512 * 1024,
  workerMemoryBytes: 64 * 1024 * 1024,
  recycleBytes: 32 * 1024 * 1024,
  valueBytes: 1024 * 1024,
};

/** Workers of the pool (SCRIPT_WORKERS); each tenant may run scripts on all but one of them at once. */
export const DEFAULT_SCRIPT_WORKERS = 2;

/** How many workers one tenant's scripts may occupy at once: all but one, so another tenant always finds one. */
export const perTenantShare = (workers: number) => Math.max(1, workers - 1);

const MiB = 1024 * 1024;
export const mib = (bytes: number) => (bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`);
