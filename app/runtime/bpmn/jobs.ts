import { NotFoundError } from "../../../engine/errors";
import { DEFAULT_RETRIES, parseRetryCycle } from "../../../engine/jobs/retry-cycle";
import type { RuntimeContext } from "./context";
import { iso, toJob, type Row } from "./rows";

/** Wait before retrying a failed job when the model sets no failedJobRetryTimeCycle (Flowable's default is 10 s too). */
export const DEFAULT_RETRY_WAIT_MS = 10_000;
const LOCK_MS = 5 * 60_000;

/** The job executor: claims due jobs by setting a lock in a transaction, runs each as an engine command, records failures. */
export function createJobs(ctx: RuntimeContext) {
  const { db } = ctx;
  const owner = `executor-${ctx.newId()}`;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<number> | null = null;

  const claim = (limit: number): Row[] =>
    ctx.tx(() => {
      const now = ctx.clock();
      const rows = db
        .query(`SELECT j.* FROM jobs j LEFT JOIN process_instances i ON i.id = j.instance_id
      WHERE j.state = 'EXECUTABLE' AND j.due_at <= ? AND (j.lock_expires_at IS NULL OR j.lock_expires_at < ?) AND (j.instance_id IS NULL OR i.state = 'ACTIVE')
      ORDER BY j.due_at LIMIT ?`)
        .all(now, now, limit) as Row[];
      const lock = db.query("UPDATE jobs SET lock_owner = ?, lock_expires_at = ? WHERE id = ?");
      for (const r of rows) lock.run(owner, now + LOCK_MS, r.id);
      return rows;
    });

  const fail = (job: Row, err: unknown) => {
    const now = ctx.clock();
    const data = JSON.parse(job.data);
    const policy = parseRetryCycle(data.retryCycle);
    const retries = Math.max(0, (job.retries as number) - 1);
    const message = err instanceof Error ? err.message : String(err);
    const wait = data.retryCycle ? policy.delayMs(now) : DEFAULT_RETRY_WAIT_MS;
    ctx.tx(() =>
      db
        .query(
          "UPDATE jobs SET retries = ?, state = ?, exception = ?, due_at = ?, lock_owner = NULL, lock_expires_at = NULL WHERE id = ? AND tenant_id = ?",
        )
        .run(retries, retries === 0 ? "DEADLETTER" : "EXECUTABLE", message, now + wait, job.id, job.tenant_id),
    );
    ctx.logger.warn(`job ${job.id} at ${job.activity_id} failed (${retries} retries left): ${message}`, {
      tenantId: job.tenant_id,
    });
  };

  const runOne = async (job: Row): Promise<boolean> => {
    try {
      await ctx.command(job.tenant_id, async (s) => {
        // Re-read inside every attempt: a job another executor already ran is gone, and must not run twice.
        const fresh = db
          .query("SELECT * FROM jobs WHERE id = ? AND tenant_id = ?")
          .get(job.id, job.tenant_id) as Row | null;
        if (fresh?.state !== "EXECUTABLE") return;
        await ctx.engine.executeJob(s, toJob(fresh));
      });
      return true;
    } catch (e) {
      fail(job, e);
      return false;
    }
  };

  const api = {
    /** Runs every job due now (each once per call), oldest first; returns how many ran successfully. */
    async runDueJobs(opts: { limit?: number } = {}): Promise<number> {
      const rows = claim(opts.limit ?? 1000);
      let ok = 0;
      for (const r of rows) if (await runOne(r)) ok++;
      return ok;
    },

    /** Starts polling for due jobs every `intervalMs` (one pass at a time). */
    startJobExecutor(opts: { intervalMs?: number } = {}) {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = api
          .runDueJobs()
          .catch((e) => {
            ctx.logger.error("job executor pass failed", { error: String(e) });
            return 0;
          })
          .finally(() => {
            running = null;
          });
      }, opts.intervalMs ?? 1000);
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (running) await running;
    },

    /** Jobs that failed at least once (retrying or dead-lettered), with their instance, step and error. */
    failedJobs(tenantId: string) {
      const rows = db
        .query(`SELECT j.*, i.business_key, i.definition_key FROM jobs j LEFT JOIN process_instances i ON i.id = j.instance_id
        WHERE j.tenant_id = ? AND (j.state = 'DEADLETTER' OR j.exception IS NOT NULL) ORDER BY j.due_at`)
        .all(tenantId) as Row[];
      return rows.map((r) => ({
        id: r.id as string,
        instanceId: r.instance_id as string | null,
        businessKey: r.business_key as string | null,
        definitionKey: r.definition_key as string | null,
        activityId: r.activity_id as string,
        kind: r.kind as string,
        state: r.state as string,
        retries: r.retries as number,
        exception: r.exception as string | null,
        dueAt: iso(r.due_at),
        createdAt: iso(r.created_at),
      }));
    },

    /** Puts a failed job back to executable now, with its retries reset. */
    retryJob(tenantId: string, jobId: string) {
      const r = db.query("SELECT * FROM jobs WHERE id = ? AND tenant_id = ?").get(jobId, tenantId) as Row | null;
      if (!r) throw new NotFoundError(`Job ${jobId} not found`);
      const data = JSON.parse(r.data);
      const attempts = data.retryCycle ? parseRetryCycle(data.retryCycle).attempts : DEFAULT_RETRIES;
      ctx.tx(() =>
        db
          .query(
            "UPDATE jobs SET state = 'EXECUTABLE', retries = ?, due_at = ?, lock_owner = NULL, lock_expires_at = NULL WHERE id = ? AND tenant_id = ?",
          )
          .run(attempts, ctx.clock(), jobId, tenantId),
      );
      return (
        api.failedJobs(tenantId).find((j) => j.id === jobId) ?? { id: jobId, state: "EXECUTABLE", retries: attempts }
      );
    },

    /** Moves a job to the dead-letter state, stopping its retries. */
    deadletterJob(tenantId: string, jobId: string) {
      const r = db.query("SELECT id FROM jobs WHERE id = ? AND tenant_id = ?").get(jobId, tenantId) as Row | null;
      if (!r) throw new NotFoundError(`Job ${jobId} not found`);
      ctx.tx(() =>
        db
          .query(
            "UPDATE jobs SET state = 'DEADLETTER', retries = 0, lock_owner = NULL, lock_expires_at = NULL WHERE id = ? AND tenant_id = ?",
          )
          .run(jobId, tenantId),
      );
      return api.failedJobs(tenantId).find((j) => j.id === jobId)!;
    },

    /** Jobs of an instance (timers, async steps), for tests and diagnostics. */
    jobsOf(tenantId: string, instanceId: string) {
      return (
        db
          .query("SELECT * FROM jobs WHERE instance_id = ? AND +tenant_id = ? ORDER BY due_at")
          .all(instanceId, tenantId) as Row[]
      ).map(toJob);
    },
  };
  return api;
}
