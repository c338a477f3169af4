import type { Database } from "bun:sqlite";
import { immediate } from "../../../db/connection";
import { writeGate } from "../../../db/write-gate";
import type { EngineLogger } from "../../../engine/bpmn";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import { parseRetryCycle } from "../../../engine/jobs/retry-cycle";
import type { RuntimeKind } from "./definitions-store";
import type { JobRow } from "./rows";
import type { WriteHooks } from "./write-hooks";

/** Wait before retrying a failed job when the model sets no failedJobRetryTimeCycle (Flowable's default is 10 s too). */
export const DEFAULT_RETRY_WAIT_MS = 10_000;
const LOCK_MS = 5 * 60_000;
/** The kind of the job rows that are timer event listeners of cases; every other kind is a process's. */
export const CASE_TIMER = "case-timer";
/** The agent run of a case's task (app/runtime/cmmn/worker-jobs.ts): the case runtime claims it with its timers. */
export const CASE_AGENT = "case-agent";
/** Robot work: a runner fetches and completes it over HTTP (kernel/external-jobs.ts); the executor never claims it. */
export const EXTERNAL_JOB = "external";
/** Kinds of service jobs (knowledge indexing, ...) start with this prefix; no runtime claims them but their own. */
export const SERVICE_JOB_PREFIX = "svc:";
/** Who claims a job row: a runtime, or the service jobs (app/runtime/kernel/service-jobs.ts). */
export type ClaimKind = RuntimeKind | "SERVICE";

/** How many jobs awaiting a model one executor pass runs at once. */
export const MODEL_JOBS_AT_ONCE = 32;
const awaitsModel = (j: JobRow) =>
  j.data.includes('"agent"') && (JSON.parse(j.data) as { agent?: string }).agent !== undefined;

/** Runs `work` over `items`, at most `width` at a time. */
async function sideBySide<T>(items: T[], width: number, work: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

/** Who ran a job by hand (`POST /a/jobs/{id}/execute`): recorded in the instance's history. */
export interface JobAudit {
  who: string | null;
  channel: string;
}

/**
 * Runs one claimed job as an engine command; false when it turned out to be gone (ran elsewhere meanwhile). `audit`
 * is given when an operator runs the job now; a handler that can write history in the job's own command does so and
 * answers `{ audited: true }`.
 */
export type JobHandler = (job: JobRow, audit?: JobAudit) => Promise<boolean | { audited: true }>;

// Claims lock the rows inside the transaction that reads them, so two executors never run one job. A process job
// waits while its instance is suspended; a case timer's case is checked by the engine when it fires.
const CLAIM: Record<ClaimKind, string> = {
  BPMN: `SELECT j.* FROM jobs j LEFT JOIN process_instances i ON i.id = j.instance_id
    WHERE j.state = 'EXECUTABLE' AND j.due_at <= ? AND (j.lock_expires_at IS NULL OR j.lock_expires_at < ?)
    AND j.kind NOT IN ('${CASE_TIMER}', '${CASE_AGENT}', '${EXTERNAL_JOB}') AND j.kind NOT LIKE '${SERVICE_JOB_PREFIX}%' AND (j.instance_id IS NULL OR i.state = 'ACTIVE') ORDER BY j.due_at LIMIT ?`,
  CMMN: `SELECT j.* FROM jobs j WHERE j.state = 'EXECUTABLE' AND j.due_at <= ? AND (j.lock_expires_at IS NULL OR j.lock_expires_at < ?)
    AND j.kind IN ('${CASE_TIMER}', '${CASE_AGENT}') ORDER BY j.due_at LIMIT ?`,
  SERVICE: `SELECT j.* FROM jobs j WHERE j.state = 'EXECUTABLE' AND j.due_at <= ? AND (j.lock_expires_at IS NULL OR j.lock_expires_at < ?)
    AND j.kind LIKE '${SERVICE_JOB_PREFIX}%' ORDER BY j.due_at LIMIT ?`,
};

/**
 * The one job executor of the engine database: process jobs (async continuations, timers, failed service steps) and
 * case timers alike are claimed by setting a lock in a transaction, run by the handler of their runtime, and on
 * failure retried with the model's retry cycle (else every 10 s) until their retries run out (dead-letter).
 */
export function createJobExecutor(
  db: Database,
  clock: () => number,
  newId: () => string,
  logger: () => EngineLogger,
  writeHooks?: WriteHooks,
) {
  const owner = `executor-${newId()}`;
  // The kernel's write gate, read directly: a claim right after a poll found work stays in the same tick when the
  // writes are not held (kernel.writable() would await a resolved promise first).
  const gate = writeGate(db);
  const handlers = new Map<ClaimKind, JobHandler>();
  let loop: ReturnType<typeof setInterval> | null = null;
  let running: Promise<unknown> | null = null;
  let failures = 0;
  let inFlight = 0;
  const q = {
    lock: db.query("UPDATE jobs SET lock_owner = ?, lock_expires_at = ? WHERE id = ?"),
    fail: db.query(
      "UPDATE jobs SET retries = ?, state = ?, exception = ?, due_at = ?, lock_owner = NULL, lock_expires_at = NULL WHERE id = ? AND tenant_id = ?",
    ),
    one: db.query<JobRow, [string, string]>("SELECT * FROM jobs WHERE id = ? AND tenant_id = ?"),
    // An operator's run: due now, executable again (a dead-lettered job gets the one try), locked by this executor.
    takeNow: db.query(
      "UPDATE jobs SET state = 'EXECUTABLE', retries = max(retries, 1), due_at = ?, lock_owner = ?, lock_expires_at = ? WHERE id = ?",
    ),
  };

  // A look without the write lock first: the poll runs every 500 ms for each kind, and most polls find nothing due.
  const anyDue = (kind: ClaimKind): boolean => {
    const now = clock();
    return db.query<JobRow, [number, number, number]>(CLAIM[kind]).get(now, now, 1) != null;
  };
  const claim = (kind: ClaimKind, limit: number): JobRow[] =>
    immediate(db, () => {
      const now = clock();
      const rows = db.query<JobRow, [number, number, number]>(CLAIM[kind]).all(now, now, limit);
      for (const r of rows) q.lock.run(owner, now + LOCK_MS, r.id);
      return rows;
    });

  const fail = (job: JobRow, err: unknown, after?: (message: string) => void) => {
    const now = clock();
    const data = JSON.parse(job.data) as { retryCycle?: string; backoffMs?: number; maxRetries?: number };
    const retries = Math.max(0, job.retries - 1);
    const message = err instanceof Error ? err.message : String(err);
    failures++;
    // Service jobs back off exponentially (backoffMs, then 4×, 16×, ...); process jobs follow the model's cycle.
    const wait = data.backoffMs
      ? data.backoffMs * 4 ** Math.max(0, (data.maxRetries ?? job.retries) - job.retries)
      : data.retryCycle
        ? parseRetryCycle(data.retryCycle).delayMs(now)
        : DEFAULT_RETRY_WAIT_MS;
    immediate(db, () => {
      q.fail.run(retries, retries === 0 ? "DEADLETTER" : "EXECUTABLE", message, now + wait, job.id, job.tenant_id);
      if (retries === 0)
        writeHooks?.emit({ kind: "job-dead-lettered", tenantId: job.tenant_id, job, exception: message });
      after?.(message);
    });
    logger().warn(`job ${job.id} at ${job.activity_id} failed (${retries} retries left): ${message}`, {
      tenantId: job.tenant_id,
    });
  };

  const api = {
    owner,
    /** The runtime of `kind` runs its jobs with `handler` (a runtime built again on the connection replaces it). */
    register(kind: ClaimKind, handler: JobHandler) {
      handlers.set(kind, handler);
    },

    /** Runs every job of the runtime due now (each once per call), oldest first; returns how many ran. */
    async runDue(kind: ClaimKind, limit = 1000): Promise<number> {
      const handler = handlers.get(kind);
      if (!handler) return 0;
      let ran = 0;
      if (!anyDue(kind)) return 0;
      // While the checkpointer holds the writes (copying the WAL's last frames, or truncating it), a claim would wait
      // for its lock in SQLite's busy handler, on the event loop: wait for the release instead (the service releases
      // on its own after the checkpointer's maxHoldMs, 5 s, whatever the worker does).
      if (gate.held) await gate.whenReleased();
      const one = async (job: JobRow) => {
        inFlight++;
        try {
          if (await handler(job)) ran++;
        } catch (e) {
          // The handler ran for a while (a delegate, a model): the writes may be held by now.
          if (gate.held) await gate.whenReleased();
          fail(job, e);
        } finally {
          inFlight--;
        }
      };
      const jobs = claim(kind, limit);
      // Jobs that await a model (agent steps, agent loops' turns) run side by side, a bounded number at once: one
      // model's answer must not hold every other job (a timer, a tool activity, another loop's turn) behind it.
      const side = sideBySide(jobs.filter(awaitsModel), MODEL_JOBS_AT_ONCE, one);
      for (const job of jobs.filter((j) => !awaitsModel(j))) await one(job);
      await side;
      return ran;
    },

    /**
     * Runs one job now whatever its due time (an operator's execute): a timer fires as if due, a failed or
     * dead-lettered job gets one try; a failure follows the retry rule (one retry fewer, dead-letter at 0).
     * `audit(outcome, error)` writes the operator's row in history unless the handler wrote it in the job's command.
     */
    async runNow(
      kind: ClaimKind,
      tenantId: string,
      jobId: string,
      audit: JobAudit,
      record: (job: JobRow, outcome: "executed" | "failed", error: string | null) => void,
    ): Promise<{ outcome: "executed" | "failed" | "gone"; error: string | null }> {
      const handler = handlers.get(kind);
      if (!handler) throw new Error(`No handler for ${kind} jobs`);
      if (gate.held) await gate.whenReleased();
      const job = immediate(db, () => {
        const now = clock();
        const row = q.one.get(jobId, tenantId);
        if (!row) throw new NotFoundError(`Job ${jobId} not found`);
        if (row.lock_expires_at !== null && row.lock_expires_at >= now)
          throw new ConflictError(
            `Job ${jobId} is running now (locked until ${new Date(row.lock_expires_at).toISOString()})`,
          );
        q.takeNow.run(now, owner, now + LOCK_MS, jobId);
        return q.one.get(jobId, tenantId)!;
      });
      inFlight++;
      try {
        const done = await handler(job, audit);
        if (done === false) return { outcome: "gone", error: null };
        if (done === true && job.instance_id) immediate(db, () => record(job, "executed", null));
        return { outcome: "executed", error: null };
      } catch (e) {
        if (gate.held) await gate.whenReleased();
        let error: string | null = null;
        fail(job, e, (message) => {
          error = message;
          if (job.instance_id) record(job, "failed", message);
        });
        return { outcome: "failed", error };
      } finally {
        inFlight--;
      }
    },

    /** Polls for due jobs of every registered runtime every `intervalMs`, one pass at a time; a second start is a no-op. */
    start(opts: { intervalMs?: number; onError?: (e: unknown) => void } = {}) {
      if (loop) return;
      loop = setInterval(() => {
        if (running) return;
        running = (async () => {
          for (const kind of handlers.keys()) await api.runDue(kind);
        })()
          .catch((e) => {
            opts.onError?.(e);
            logger().error("job executor pass failed", { error: String(e) });
          })
          .finally(() => {
            running = null;
          });
      }, opts.intervalMs ?? 1000);
    },

    /** Whether the polling loop is on (readiness reports it). */
    active: () => loop !== null,

    /** What an operator watches (metrics): jobs due now, how late the oldest is, running, failed, dead-lettered. */
    figures(): JobFigures {
      const now = clock();
      const due = db
        .query<{ n: number; oldest: number | null }, [number, number]>(
          "SELECT count(*) AS n, min(due_at) AS oldest FROM jobs WHERE state = 'EXECUTABLE' AND due_at <= ? AND (lock_owner IS NULL OR lock_expires_at < ?)",
        )
        .get(now, now);
      const dead = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE state = 'DEADLETTER'").get();
      return {
        due: due?.n ?? 0,
        lagMs: due?.oldest == null ? 0 : Math.max(0, now - due.oldest),
        running: inFlight,
        failures,
        deadLetters: dead?.n ?? 0,
      };
    },

    async stop() {
      if (loop) clearInterval(loop);
      loop = null;
      if (running) await running;
    },
  };
  return api;
}
export type JobExecutor = ReturnType<typeof createJobExecutor>;

export interface JobFigures {
  due: number;
  /** How long the oldest due job has waited (timers included: a timer is a job). */
  lagMs: number;
  running: number;
  /** Failed attempts since start. */
  failures: number;
  deadLetters: number;
}
