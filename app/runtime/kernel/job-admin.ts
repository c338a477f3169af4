import type { Database } from "bun:sqlite";
import { immediate } from "../../../db/connection";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import { DEFAULT_RETRIES, parseRetryCycle } from "../../../engine/jobs/retry-cycle";
import { insertJobAudit, jobAuditRecord } from "./job-audit";
import {
  CASE_AGENT,
  CASE_TIMER,
  EXTERNAL_JOB,
  SERVICE_JOB_PREFIX,
  type JobAudit,
  type JobExecutor,
} from "./job-executor";
import { iso, toJob, type JobRow } from "./rows";

type FailedRow = JobRow & { business_key: string | null; definition_key: string | null };

/**
 * What an operator sees and does with jobs of processes and cases: the failed ones, retry, dead-letter. A retry or a
 * dead-letter waits first while the checkpointer holds the engine's writes (`writable`, the kernel's), then reads the
 * job as it is after the wait.
 */
export function createJobAdmin(
  db: Database,
  clock: () => number,
  writable: () => Promise<void>,
  onRetried?: (job: JobRow) => void,
  executor?: () => JobExecutor,
  newId: () => string = () => Bun.randomUUIDv7(),
) {
  const tx = <T>(fn: () => T): T => immediate(db, fn);
  const q = {
    // A job belongs to a process instance or to a case (a case timer); both answer with their business key.
    failed: db.query<FailedRow, [string]>(`SELECT j.*, COALESCE(i.business_key, c.business_key) AS business_key,
        COALESCE(i.definition_key, c.definition_key) AS definition_key
      FROM jobs j LEFT JOIN process_instances i ON i.id = j.instance_id LEFT JOIN case_instances c ON c.id = j.instance_id
      WHERE j.tenant_id = ? AND (j.state = 'DEADLETTER' OR j.exception IS NOT NULL) ORDER BY j.due_at`),
    one: db.query<JobRow, [string, string]>("SELECT * FROM jobs WHERE id = ? AND tenant_id = ?"),
    retry: db.query(
      "UPDATE jobs SET state = 'EXECUTABLE', retries = ?, due_at = ?, lock_owner = NULL, lock_expires_at = NULL WHERE id = ? AND tenant_id = ?",
    ),
    dead: db.query(
      "UPDATE jobs SET state = 'DEADLETTER', retries = 0, lock_owner = NULL, lock_expires_at = NULL WHERE id = ? AND tenant_id = ?",
    ),
    ofInstance: db.query<JobRow, [string, string]>(
      "SELECT * FROM jobs WHERE instance_id = ? AND +tenant_id = ? ORDER BY due_at",
    ),
    // Timer starts of a key: jobs of its versions that belong to no instance (refreshStartEvents keeps them).
    ofKey: db.query<JobRow, [string, string]>(
      `SELECT j.* FROM jobs j JOIN definitions d ON d.id = j.definition_id
      WHERE d.tenant_id = ? AND d.key = ? AND j.instance_id IS NULL AND j.kind NOT LIKE '${SERVICE_JOB_PREFIX}%' ORDER BY j.due_at`,
    ),
    instanceState: db.query<{ state: string }, [string, string, string, string]>(
      "SELECT state FROM process_instances WHERE id = ? AND tenant_id = ? UNION ALL SELECT state FROM case_instances WHERE id = ? AND tenant_id = ?",
    ),
  };
  const find = (tenantId: string, jobId: string): JobRow => {
    const r = q.one.get(jobId, tenantId);
    if (!r) throw new NotFoundError(`Job ${jobId} not found`);
    return r;
  };

  /** Spec (Instances rule 3): AI failures have no retry and no dead-letter through the API. */
  const refuseAgentJob = (row: JobRow, what: string) => {
    const agent = (JSON.parse(row.data) as { agent?: string }).agent;
    if (agent)
      throw new ConflictError(
        `Job ${row.id} runs the AI agent '${agent}': AI failures have no ${what} through the API (see GET /a/ai-task-failures); reprocessing means submitting the document again, or reactivating a case's failed step`,
      );
  };

  const api = {
    /** Jobs that failed at least once (retrying or dead-lettered), with their instance, step and error. */
    failedJobs(tenantId: string) {
      return q.failed.all(tenantId).map((r) => ({
        id: r.id,
        instanceId: r.instance_id,
        businessKey: r.business_key,
        definitionKey: r.definition_key,
        activityId: r.activity_id,
        kind: r.kind,
        state: r.state,
        retries: r.retries,
        exception: r.exception,
        // A robot runner's errorDetails (stack trace), kept apart from the message.
        errorDetails: (JSON.parse(r.data) as { errorDetails?: string }).errorDetails ?? null,
        dueAt: iso(r.due_at),
        createdAt: iso(r.created_at),
      }));
    },

    /** Puts a failed job back to executable now, with its retries reset. */
    async retryJob(tenantId: string, jobId: string) {
      await writable();
      const row = find(tenantId, jobId);
      refuseAgentJob(row, "retry");
      const data = JSON.parse(row.data) as { retryCycle?: string };
      const attempts = data.retryCycle ? parseRetryCycle(data.retryCycle).attempts : DEFAULT_RETRIES;
      tx(() => q.retry.run(attempts, clock(), jobId, tenantId));
      onRetried?.(row);
      return (
        api.failedJobs(tenantId).find((j) => j.id === jobId) ?? { id: jobId, state: "EXECUTABLE", retries: attempts }
      );
    },

    /** Moves a job to the dead-letter state, stopping its retries. */
    async deadletterJob(tenantId: string, jobId: string) {
      await writable();
      refuseAgentJob(find(tenantId, jobId), "dead-letter");
      tx(() => q.dead.run(jobId, tenantId));
      return api.failedJobs(tenantId).find((j) => j.id === jobId)!;
    },

    /** Jobs of an instance or case (timers, async steps), for tests and diagnostics. */
    jobsOf: (tenantId: string, instanceId: string) => q.ofInstance.all(instanceId, tenantId).map(toJob),

    /** Every job of an instance or case as an operator sees it (GET /a/instances/{id}/jobs). */
    instanceJobs: (tenantId: string, instanceId: string) => q.ofInstance.all(instanceId, tenantId).map(jobView),

    /** The timer-start jobs of a definition key (they belong to no instance). */
    definitionJobs: (tenantId: string, key: string) => q.ofKey.all(tenantId, key).map(jobView),

    /**
     * Runs a job now (POST /a/jobs/{id}/execute): a timer fires as if due, a failed job is tried once. Robot jobs
     * are the runners' and AI agent jobs have no reprocessing through the API (409); a job of a suspended or ended
     * instance waits (409). The run is recorded in the instance's history with who ran it.
     */
    async executeJob(tenantId: string, jobId: string, audit: JobAudit) {
      await writable();
      const row = find(tenantId, jobId);
      if (row.kind.startsWith(SERVICE_JOB_PREFIX)) throw new NotFoundError(`Job ${jobId} not found`);
      if (row.kind === EXTERNAL_JOB)
        throw new ConflictError(`Job ${jobId} is robot work: a robot runner runs it (fetchAndLock), not the engine`);
      refuseAgentJob(row, "execution");
      if (row.kind === CASE_AGENT) throw new ConflictError(`Job ${jobId} runs an AI agent: it cannot be run by hand`);
      if (row.instance_id) {
        const state = q.instanceState.get(row.instance_id, tenantId, row.instance_id, tenantId)?.state;
        if (state !== "ACTIVE")
          throw new ConflictError(`Job ${jobId} waits: its instance ${row.instance_id} is ${state ?? "gone"}`);
      }
      const run = executor?.();
      if (!run) throw new ConflictError("No job executor on this runtime");
      const kind = row.kind === CASE_TIMER ? "CMMN" : "BPMN";
      const result = await run.runNow(kind, tenantId, jobId, audit, (job, outcome, error) => {
        const rec = jobAuditRecord(job, job.instance_id!, audit, outcome, clock(), newId());
        insertJobAudit(db, error ? { ...rec, activityName: `${rec.activityName}: ${error.slice(0, 500)}` } : rec);
      });
      const after = q.one.get(jobId, tenantId);
      return {
        id: jobId,
        outcome: result.outcome === "failed" ? ("failed" as const) : ("executed" as const),
        error: result.error,
        job: after ? jobView(after) : null,
      };
    },
  };
  return api;
}

/** A job as the job routes show it: what it is, when it is due, how many tries are left and its last error. */
export function jobView(r: JobRow) {
  const data = JSON.parse(r.data) as { topic?: string; errorDetails?: string };
  return {
    id: r.id,
    instanceId: r.instance_id,
    definitionId: r.definition_id,
    activityId: r.activity_id,
    type: r.kind,
    state: r.state,
    dueAt: iso(r.due_at)!,
    retries: r.retries,
    exception: r.exception,
    errorDetails: data.errorDetails ?? null,
    topic: data.topic ?? null,
    lockExpiresAt: iso(r.lock_expires_at),
    createdAt: iso(r.created_at)!,
  };
}
