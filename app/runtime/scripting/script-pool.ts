import type { ScriptOutcome } from "../../../engine/bpmn/deps";
import { DEFAULT_SCRIPT_WORKERS, perTenantShare, SCRIPT_LIMITS, type ScriptLimits } from "./script-limits";
import type { FromWorker, ToWorker } from "./script-worker";

interface Job {
  id: number;
  tenantId: string;
  source: string;
  variables: Record<string, unknown>;
  resolve(outcome: ScriptOutcome): void;
  reject(err: Error): void;
}

// Run by the same bun as the service, as a child process with an IPC channel.
const WORKER_PATH = new URL("./script-worker.ts", import.meta.url).pathname;

interface Slot {
  worker: Bun.Subprocess;
  /** Set once the pool ended it on purpose (deadline, recycling, close). */
  ended?: boolean;
  ready: boolean;
  job?: Job;
  timer?: ReturnType<typeof setTimeout>;
}

export interface ScriptPoolOptions {
  workers?: number;
  limits?: ScriptLimits;
}

/** Counters since the pool started (tests and metrics read them). */
export interface ScriptPoolStats {
  workers: number;
  busy: number;
  queued: number;
  /** Workers killed past the deadline. */
  killed: number;
  /** Workers replaced because their memory grew past the recycle bound (or their module trapped). */
  recycled: number;
  started: number;
}

/**
 * Model JavaScript off the event loop: a small pool of worker processes, each with its own QuickJS module. A worker
 * is killed when an evaluation passes the wall-clock deadline (a native call the interrupt handler cannot reach
 * included) and replaced when its WebAssembly memory grew past the recycle bound, so that memory is given back. Queued scripts are served round-robin per tenant, and one tenant's scripts occupy at most all workers but one.
 */
export function createScriptPool(opts: ScriptPoolOptions = {}) {
  const size = Math.max(1, opts.workers ?? DEFAULT_SCRIPT_WORKERS);
  const limits = opts.limits ?? SCRIPT_LIMITS;
  const share = perTenantShare(size);
  const slots: Slot[] = [];
  // Per tenant, its waiting scripts; the Map's order is the round-robin: a tenant served goes to the back.
  const queues = new Map<string, Job[]>();
  const running = new Map<string, number>();
  const stats = { killed: 0, recycled: 0, started: 0 };
  let nextId = 1;
  let queued = 0;

  const spawn = (): Slot => {
    const slot = { ready: false } as Slot;
    const worker = Bun.spawn([process.execPath, WORKER_PATH], {
      stdio: ["ignore", "inherit", "inherit"],
      // Nothing of the service's environment (secrets) reaches the process that runs tenants' code.
      env: { PATH: process.env.PATH ?? "" },
      serialization: "advanced",
      ipc: (msg: FromWorker) => answered(slot, msg),
      onExit: (_proc, code) => {
        if (slot.worker !== worker || slot.ended) return;
        if (!slot.ready) {
          // It could not start: the waiting scripts fail rather than wait, and the next try is a second later.
          failQueued(new Error(`a script worker could not start (exit code ${code})`));
          slot.ended = true;
          setTimeout(() => slots.includes(slot) && replace(slot), 1000).unref();
          return;
        }
        // Ended on its own (crashed): its script fails and a fresh worker takes its place.
        const job = slot.job;
        if (job) finish(slot);
        job?.reject(new Error("the script's worker ended unexpectedly"));
        replace(slot);
        dispatch();
      },
    });
    slot.worker = worker;
    stats.started++;
    worker.send({ type: "init", limits } satisfies ToWorker);
    return slot;
  };

  const answered = (slot: Slot, msg: FromWorker) => {
    if (msg.type === "ready") {
      slot.ready = true;
      return dispatch();
    }
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    finish(slot);
    if (msg.ok) job.resolve({ value: msg.value, writes: msg.writes });
    else job.reject(new Error(msg.message));
    if (msg.wasmBytes > limits.recycleBytes || (!msg.ok && msg.broken)) {
      stats.recycled++;
      replace(slot);
    }
    dispatch();
  };

  const finish = (slot: Slot) => {
    const job = slot.job!;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    const n = (running.get(job.tenantId) ?? 1) - 1;
    if (n > 0) running.set(job.tenantId, n);
    else running.delete(job.tenantId);
  };

  const failQueued = (err: Error) => {
    for (const jobs of queues.values()) for (const j of jobs) j.reject(err);
    queues.clear();
    queued = 0;
  };

  const end = (slot: Slot) => {
    slot.ended = true;
    slot.worker.kill(9);
  };

  const replace = (slot: Slot) => {
    end(slot);
    const i = slots.indexOf(slot);
    if (i >= 0) slots[i] = spawn();
    keepAlive();
  };

  // Workers keep the process alive only while scripts wait or run: an idle pool never holds a test or a CLI open.
  const keepAlive = () => {
    const busy = queued > 0 || slots.some((s) => s.job);
    for (const s of slots) busy ? s.worker.ref() : s.worker.unref();
  };

  /** The next job to run: round-robin over the tenants with waiting scripts that are under their share of workers. */
  const nextJob = (): Job | undefined => {
    for (const [tenantId, jobs] of queues) {
      if ((running.get(tenantId) ?? 0) >= share) continue;
      const job = jobs.shift()!;
      queues.delete(tenantId);
      if (jobs.length) queues.set(tenantId, jobs);
      queued--;
      return job;
    }
    return undefined;
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      const job = nextJob();
      if (!job) break;
      slot.job = job;
      running.set(job.tenantId, (running.get(job.tenantId) ?? 0) + 1);
      // The deadline counts from the hand-over: a script never pays for the queue or a worker's start.
      slot.timer = setTimeout(() => {
        if (slot.job !== job) return;
        finish(slot);
        stats.killed++;
        job.reject(
          new Error(
            `the script ran longer than its time limit of ${limits.deadlineMs} ms (wall clock) and was stopped`,
          ),
        );
        replace(slot);
        dispatch();
      }, limits.deadlineMs);
      try {
        slot.worker.send({
          type: "run",
          id: job.id,
          source: job.source,
          variables: job.variables,
        } satisfies ToWorker);
      } catch (e) {
        // Variables that cannot be cloned to a worker: this script fails, the worker stays free.
        finish(slot);
        job.reject(new Error(`the script's variables cannot be handed to it: ${(e as Error).message}`));
        queueMicrotask(dispatch);
      }
    }
    keepAlive();
  };

  return {
    limits,
    run(source: string, job: { tenantId: string; variables: Record<string, unknown> }): Promise<ScriptOutcome> {
      if (!slots.length) for (let i = 0; i < size; i++) slots.push(spawn());
      return new Promise<ScriptOutcome>((resolve, reject) => {
        const queue = queues.get(job.tenantId) ?? [];
        queue.push({ id: nextId++, tenantId: job.tenantId, source, variables: job.variables, resolve, reject });
        queues.set(job.tenantId, queue);
        queued++;
        dispatch();
      });
    },
    /** Workers running a script of this tenant now. */
    runningOf(tenantId: string): number {
      return running.get(tenantId) ?? 0;
    },
    stats(): ScriptPoolStats {
      return { workers: size, busy: slots.filter((s) => s.job).length, queued, ...stats };
    },
    /** Ends every worker; waiting scripts fail. */
    close() {
      failQueued(new Error("the script pool was closed"));
      for (const s of slots) {
        clearTimeout(s.timer);
        s.job?.reject(new Error("the script pool was closed"));
        end(s);
      }
      slots.length = 0;
    },
  };
}
export type ScriptPool = ReturnType<typeof createScriptPool>;
