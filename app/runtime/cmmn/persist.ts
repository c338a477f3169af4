import type { Database } from "bun:sqlite";
import type { CaseChanges } from "../../../engine/cmmn";
import { ConflictError, RevisionConflict } from "../../../engine/errors";
import { DEFAULT_RETRIES } from "../../../engine/jobs/retry-cycle";
import { CASE_AGENT, CASE_TIMER, EXTERNAL_JOB } from "../kernel/job-executor";
import { createTaskWrites } from "../kernel/task-writes";

/** Writes a case command's changes; a case another command moved meanwhile raises RevisionConflict (the command is retried). */
export function createCasePersister(db: Database) {
  const tasks = createTaskWrites(db);
  const q = {
    instIns: db.query(
      `INSERT INTO case_instances (id, tenant_id, definition_id, definition_key, version, business_key, parent_case_id, parent_plan_item_id, state, started_by, channel, start_time, end_time, end_reason, variables, revision) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)`,
    ),
    // Two updates: naming `state` in SET rewrites its index entries even when the value is unchanged (most commands).
    instEnd: db.query(
      "UPDATE case_instances SET state = ?, end_time = ?, end_reason = ?, variables = ?, revision = revision + 1 WHERE id = ? AND tenant_id = ? AND revision = ?",
    ),
    instUpd: db.query(
      "UPDATE case_instances SET variables = ?, revision = revision + 1 WHERE id = ? AND tenant_id = ? AND revision = ?",
    ),
    itemIns: db.query(
      `INSERT INTO case_plan_items (id, tenant_id, case_instance_id, stage_instance_id, element_id, definition_ref, name, type, state, seq, created_at, started_at, ended_at, ended_by, channel, data, process_instance_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    ),
    itemUpd: db.query(
      "UPDATE case_plan_items SET state = ?, started_at = ?, ended_at = ?, ended_by = ?, channel = ?, data = ?, process_instance_id = ? WHERE case_instance_id = ? AND id = ? AND tenant_id = ?",
    ),
    taskEnd: db.query(
      "UPDATE tasks SET state = ?, completed_at = ?, completed_by = ?, channel = ? WHERE id = ? AND tenant_id = ? AND state = 'OPEN'",
    ),
    // Case timers are rows of the kernel's jobs table, run by its one executor with the same retry rule as process jobs.
    timerIns: db.query(
      `INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, exception, lock_owner, lock_expires_at, data, created_at) VALUES (?,?,?,?,?,?,'${CASE_TIMER}','EXECUTABLE',?,?,NULL,NULL,NULL,?,?)`,
    ),
    timerDel: db.query(
      `DELETE FROM jobs WHERE instance_id = ? AND execution_id = ? AND tenant_id = ? AND kind = '${CASE_TIMER}'`,
    ),
    // Agent runs (the executor claims them) and robots' external jobs (runners fetch them) of tasks.
    jobIns: db.query(
      "INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, exception, lock_owner, lock_expires_at, data, created_at) VALUES (?,?,?,?,?,?,?,'EXECUTABLE',?,?,NULL,NULL,NULL,?,?)",
    ),
    jobDel: db.query(
      `DELETE FROM jobs WHERE instance_id = ? AND execution_id = ? AND tenant_id = ? AND kind IN ('${CASE_AGENT}', '${EXTERNAL_JOB}')`,
    ),
  };

  return function persist(c: CaseChanges): void {
    const tenantOf = new Map(c.tasksCreated.map((t) => [t.id, t.tenantId]));
    const anyTenant = [...c.cases.values()][0]?.instance.tenantId;
    for (const t of c.tasksCreated) tasks.insert(t);
    // A completion only counts if the task is still open when written: exactly one of two racing completions wins.
    for (const e of c.tasksEnded) {
      if (q.taskEnd.run(e.state, e.at, e.by, e.channel, e.id, tenantOf.get(e.id) ?? anyTenant).changes === 0) {
        if (e.state === "COMPLETED") throw new ConflictError(`Task ${e.id} was completed meanwhile`);
        continue;
      }
      tasks.candidatesFollow(e.id, e.state);
    }
    for (const lc of c.cases.values()) {
      const i = lc.instance;
      if (lc.isNew)
        q.instIns.run(
          i.id,
          i.tenantId,
          i.definitionId,
          i.definitionKey,
          i.version,
          i.businessKey,
          i.parentCaseId,
          i.parentPlanItemId,
          i.state,
          i.startedBy,
          i.channel,
          i.startTime,
          i.endTime,
          i.endReason,
          JSON.stringify(i.variables),
        );
      else {
        const moved =
          i.state === lc.baseState
            ? q.instUpd.run(JSON.stringify(i.variables), i.id, i.tenantId, lc.baseRevision)
            : q.instEnd.run(
                i.state,
                i.endTime,
                i.endReason,
                JSON.stringify(i.variables),
                i.id,
                i.tenantId,
                lc.baseRevision,
              );
        if (moved.changes === 0) throw new RevisionConflict(i.id);
      }
      for (const pi of lc.items) {
        if (lc.newItems.has(pi.id))
          q.itemIns.run(
            pi.id,
            pi.tenantId,
            pi.caseInstanceId,
            pi.stageInstanceId,
            pi.elementId,
            pi.definitionRef,
            pi.name,
            pi.type,
            pi.state,
            pi.seq,
            pi.createdAt,
            pi.startedAt,
            pi.endedAt,
            pi.endedBy,
            pi.channel,
            JSON.stringify(pi.data),
            pi.data.processInstanceId ?? null,
          );
        else if (lc.dirtyItems.has(pi.id))
          q.itemUpd.run(
            pi.state,
            pi.startedAt,
            pi.endedAt,
            pi.endedBy,
            pi.channel,
            JSON.stringify(pi.data),
            pi.data.processInstanceId ?? null,
            pi.caseInstanceId,
            pi.id,
            pi.tenantId,
          );
      }
    }
    for (const t of c.timersCancelledFor) q.timerDel.run(t.caseInstanceId, t.planItemInstanceId, anyTenant);
    for (const t of c.timersCreated)
      q.timerIns.run(
        t.id,
        t.tenantId,
        t.caseInstanceId,
        t.planItemInstanceId,
        c.cases.get(t.caseInstanceId)?.instance.definitionId ?? "",
        t.elementId,
        t.dueAt,
        DEFAULT_RETRIES,
        JSON.stringify({ repeat: t.repeat }),
        t.createdAt,
      );
    for (const j of c.jobsCancelledFor) q.jobDel.run(j.caseInstanceId, j.planItemInstanceId, anyTenant ?? null);
    for (const j of c.jobsCreated)
      q.jobIns.run(
        j.id,
        j.tenantId,
        j.caseInstanceId,
        j.planItemInstanceId,
        j.definitionId,
        j.elementId,
        j.kind === "case-agent" ? CASE_AGENT : EXTERNAL_JOB,
        j.createdAt,
        DEFAULT_RETRIES,
        JSON.stringify(j.data),
        j.createdAt,
      );
    const seen = new Set<string>();
    for (const v of c.involvements) {
      const key = `${v.instanceId}\u0000${v.kind}\u0000${v.principal}`;
      if (!seen.has(key)) {
        seen.add(key);
        tasks.involve(v.tenantId, v.instanceId, v.kind, v.principal);
      }
    }
  };
}
