import type { Database } from "bun:sqlite";
import { immediate } from "../../../db/connection";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import { DEFAULT_RETRIES, parseRetryCycle } from "../../../engine/jobs/retry-cycle";
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
  };
  return api;
}
