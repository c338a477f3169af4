import type { Database } from "bun:sqlite";
import type { ActivityRecord } from "../../../engine/bpmn";
import type { JobAudit } from "./job-executor";
import type { JobRow } from "./rows";

/** The activity type of the history row an operator's job execution leaves on its instance. */
export const JOB_EXECUTION = "jobExecution";

/**
 * The history row of an operator's `POST /a/jobs/{id}/execute` on the instance the job belongs to (or, for a timer
 * start, the instance it started): who, through which channel, the job's step and whether the run succeeded.
 */
export function jobAuditRecord(
  job: JobRow,
  instanceId: string,
  audit: JobAudit,
  outcome: "executed" | "failed",
  at: number,
  id: string,
): ActivityRecord {
  return {
    id,
    tenantId: job.tenant_id,
    instanceId,
    executionId: job.execution_id ?? instanceId,
    activityId: job.activity_id,
    activityName: `Job ${job.id} (${job.kind}) run by hand`,
    activityType: JOB_EXECUTION,
    startTime: at,
    endTime: at,
    taskId: null,
    who: audit.who,
    channel: audit.channel,
    outcome,
  };
}

/** Writes the audit row inside the caller's transaction (jobs whose runtime cannot write it in the job's command). */
export function insertJobAudit(db: Database, a: ActivityRecord) {
  db.query(
    "INSERT INTO activity_log (id, tenant_id, instance_id, execution_id, activity_id, activity_name, activity_type, start_time, end_time, task_id, who, channel, outcome) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
  ).run(
    a.id,
    a.tenantId,
    a.instanceId,
    a.executionId,
    a.activityId,
    a.activityName,
    a.activityType,
    a.startTime,
    a.endTime,
    a.taskId,
    a.who,
    a.channel,
    a.outcome,
  );
}
