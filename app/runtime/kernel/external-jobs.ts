import { ConflictError, NotFoundError } from "../../../engine/errors";
import { nextTakeableAt, takeableJobs } from "./external-claims";
import { EXTERNAL_JOB } from "./job-executor";
import type { Kernel } from "./kernel";
import type { JobRow } from "./rows";

/** The longest a fetch-and-lock may wait for work (the spec of the runner API: asyncResponseTimeout ≤ 60 s). */
export const MAX_LONG_POLL_MS = 60_000;

export interface ClaimRequest {
  tenantId: string;
  /** `runner:<id>`: who holds the lock. */
  owner: string;
  topics: string[];
  maxTasks: number;
  /** Lock duration per topic. */
  lockMs: Record<string, number>;
  /** Camunda's usePriority: higher `camunda:taskPriority` first, then the oldest. */
  usePriority?: boolean;
}

/** The robot key a job waits for. */
export const topicOf = (row: JobRow): string => (JSON.parse(row.data) as { topic: string }).topic;

/** What a holder reports of a failure: `retries` left (absent: one fewer than now), when it is due again. */
export interface ExternalFailure {
  message: string;
  details?: string;
  retries?: number;
  retryTimeoutMs?: number;
}

interface Waiter {
  topics: Set<string>;
  attempt: () => void;
}

/**
 * Robot jobs (kind `external`) on the kernel's jobs table: runners claim them by topic under the same BEGIN IMMEDIATE
 * locking as the executor (two runners never hold one job), extend or lose their lock, and report failures with the
 * executor's retry and dead-letter rules. Long polls wait in memory and are woken by the commit that creates work (or
 * by a timer at the next due time or lock expiry): no busy polling.
 */
export function createExternalJobs(kernel: Kernel) {
  const { db, clock } = kernel;
  const waiters = new Map<string, Set<Waiter>>();
  const pending = new Map<string, Set<string>>();
  let flushing = false;
  const q = {
    one: db.query<JobRow, [string, string]>("SELECT * FROM jobs WHERE id = ? AND tenant_id = ?"),
    lock: db.query("UPDATE jobs SET lock_owner = ?, lock_expires_at = ? WHERE id = ?"),
    extend: db.query("UPDATE jobs SET lock_expires_at = ? WHERE id = ?"),
    // errorDetails (a stack trace) is kept apart from the message, in the job's data (Camunda serves it on its own).
    fail: db.query(
      "UPDATE jobs SET retries = ?, state = ?, exception = ?, due_at = ?, lock_owner = NULL, lock_expires_at = NULL, data = CASE WHEN ?6 IS NULL THEN json_remove(data, '$.errorDetails') ELSE json_set(data, '$.errorDetails', ?6) END WHERE id = ?5",
    ),
    release: db.query(`UPDATE jobs SET lock_owner = NULL, lock_expires_at = NULL WHERE lock_owner = ?`),
    unlock: db.query("UPDATE jobs SET lock_owner = NULL, lock_expires_at = NULL WHERE id = ?"),
  };

  // A look without the write lock first: each fetch and each wake-up of a long poll tries, and most tries of a quiet
  // queue find nothing to take.
  const anyTakeable = (r: ClaimRequest): boolean => takeableJobs(db, r, clock(), 1).length > 0;
  const claim = (r: ClaimRequest): JobRow[] => {
    if (!r.topics.length || !anyTakeable(r)) return [];
    return kernel.tx(() => {
      const now = clock();
      const rows = takeableJobs(db, r, now, r.maxTasks);
      for (const row of rows) {
        row.lock_owner = r.owner;
        row.lock_expires_at = now + (r.lockMs[topicOf(row)] ?? 0);
        q.lock.run(r.owner, row.lock_expires_at, row.id);
      }
      return rows;
    });
  };

  const nextAt = (tenantId: string, topics: string[]): number | null => nextTakeableAt(db, tenantId, topics, clock());

  const flush = () => {
    flushing = false;
    const woken = [...pending];
    pending.clear();
    for (const [tenantId, topics] of woken)
      for (const w of [...(waiters.get(tenantId) ?? [])]) if ([...topics].some((t) => w.topics.has(t))) w.attempt();
  };
  /** Wakes the long polls of these topics once the current transaction has committed (a spurious wake is harmless). */
  const wake = (tenantId: string, topics: Iterable<string>) => {
    let set = pending.get(tenantId);
    if (!set) pending.set(tenantId, (set = new Set()));
    for (const t of topics) set.add(t);
    if (!flushing) {
      flushing = true;
      setImmediate(flush);
    }
  };
  kernel.writeHooks.add((change) => {
    // Robot tasks of cases (app/runtime/cmmn) wake the same long polls.
    if (change.kind === "cmmn") {
      const topics = change.changes.jobsCreated.filter((j) => j.kind === EXTERNAL_JOB).map((j) => j.data.topic!);
      if (topics.length) wake(change.tenantId, topics);
      return;
    }
    if (change.kind !== "bpmn") return;
    const topics: string[] = [];
    for (const [, x] of change.changes.jobs)
      if (x.op !== "delete" && x.row.kind === EXTERNAL_JOB && x.row.data.topic) topics.push(x.row.data.topic);
    if (topics.length) wake(change.tenantId, topics);
  });

  /** The job as its holder sees it; NotFound for another tenant's or a gone job, Conflict when someone else holds it. */
  const heldBy = (tenantId: string, owner: string, jobId: string): JobRow => {
    const row = q.one.get(jobId, tenantId);
    if (!row || row.kind !== EXTERNAL_JOB) throw new NotFoundError(`External task ${jobId} not found`);
    if (row.lock_owner !== owner)
      throw new ConflictError(
        `External task ${jobId} is not locked by this runner (its lock expired or it was never fetched)`,
      );
    return row;
  };

  const retriesAfter = (row: JobRow, f: ExternalFailure) => Math.max(0, f.retries ?? row.retries - 1);

  return {
    claim,
    heldBy,
    wake,

    /**
     * Claims at once, or waits up to `timeoutMs` for work of the topics; answers as soon as something is locked. Each
     * try waits first while the checkpointer holds the engine's writes (kernel.writable()): a claim then would wait
     * for SQLite's lock in the busy handler, on the event loop.
     */
    async fetchAndLock(r: ClaimRequest, timeoutMs: number, signal?: AbortSignal): Promise<JobRow[]> {
      await kernel.writable();
      const first = claim(r);
      if (first.length || timeoutMs <= 0) return first;
      return new Promise((resolve) => {
        // The poll's deadline is wall time (an HTTP connection waits); due times and locks are the kernel's clock.
        const deadline = performance.now() + Math.min(timeoutMs, MAX_LONG_POLL_MS);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const set = waiters.get(r.tenantId) ?? new Set<Waiter>();
        waiters.set(r.tenantId, set);
        let finished = false;
        const done = (rows: JobRow[]) => {
          finished = true;
          clearTimeout(timer);
          set.delete(w);
          signal?.removeEventListener("abort", onAbort);
          resolve(rows);
        };
        const arm = () => {
          clearTimeout(timer);
          const next = nextAt(r.tenantId, r.topics);
          const left = deadline - performance.now();
          timer = setTimeout(w.attempt, Math.max(0, Math.min(left, next === null ? left : next - clock())));
        };
        const w: Waiter = {
          topics: new Set(r.topics),
          attempt: () =>
            void kernel.writable().then(() => {
              if (finished) return; // the runner hung up, or the poll ended, during the wait: lock nothing for it
              const rows = claim(r);
              if (rows.length || performance.now() >= deadline - 1) return done(rows);
              arm();
            }),
        };
        // The runner hung up: stop waiting (nothing was locked for it).
        const onAbort = () => done([]);
        if (signal?.aborted) return done([]);
        signal?.addEventListener("abort", onAbort);
        set.add(w);
        arm();
      });
    },

    /**
     * A new lock duration from now, for the holder only. Like every write of a robot below, it waits first while the
     * checkpointer holds the engine's writes, and checks the lock as it is after the wait: one that expired and was
     * taken by another runner meanwhile is refused.
     */
    async extendLock(tenantId: string, owner: string, jobId: string, lockMs: number) {
      await kernel.writable();
      heldBy(tenantId, owner, jobId);
      kernel.tx(() => q.extend.run(clock() + lockMs, jobId));
    },

    /**
     * The holder reports a failure: `retries` left (absent: one fewer than now); at 0 the job is dead-lettered (failed
     * jobs, the monitor's JOB_FAILED, the job.dead-lettered webhook), else it is due again after `retryTimeoutMs`.
     */
    async fail(tenantId: string, owner: string, jobId: string, f: ExternalFailure) {
      await kernel.writable();
      const row = heldBy(tenantId, owner, jobId);
      const retries = retriesAfter(row, f);
      const dueAt = clock() + (f.retryTimeoutMs ?? 0);
      kernel.tx(() => {
        q.fail.run(retries, retries === 0 ? "DEADLETTER" : "EXECUTABLE", f.message, dueAt, jobId, f.details ?? null);
        if (retries === 0)
          kernel.writeHooks.emit({
            kind: "job-dead-lettered",
            tenantId,
            job: { ...row, retries: 0, state: "DEADLETTER", exception: f.message },
            exception: f.message,
          });
      });
      if (retries > 0) wake(tenantId, [topicOf(row)]);
      return { retries, state: retries === 0 ? ("DEADLETTER" as const) : ("EXECUTABLE" as const) };
    },
    /** How many tries a failure report leaves (0: the last one failed). */
    retriesAfter,

    /** The holder gives a task back (Camunda's unlock): due again now for every runner of its topic. */
    async unlock(tenantId: string, owner: string, jobId: string) {
      await kernel.writable();
      const row = heldBy(tenantId, owner, jobId);
      kernel.tx(() => q.unlock.run(jobId));
      wake(tenantId, [topicOf(row)]);
    },

    /** What the last failure reported besides its message (Camunda's errorDetails); any runner of the tenant reads it. */
    errorDetails(tenantId: string, jobId: string): string | null {
      const row = q.one.get(jobId, tenantId);
      if (!row || row.kind !== EXTERNAL_JOB) throw new NotFoundError(`External task ${jobId} not found`);
      return (JSON.parse(row.data) as { errorDetails?: string }).errorDetails ?? null;
    },

    /** A revoked runner's locks go back to the queue at once. */
    async releaseOwner(owner: string) {
      await kernel.writable();
      kernel.tx(() => q.release.run(owner));
    },

    /** Long polls waiting now (tests and metrics). */
    waiting: () => [...waiters.values()].reduce((n, s) => n + s.size, 0),
  };
}
export type ExternalJobs = ReturnType<typeof createExternalJobs>;
