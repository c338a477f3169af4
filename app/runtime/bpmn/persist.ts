import type { Database } from "bun:sqlite";
import { RevisionConflict } from "../../../engine/errors";
import type { ChangeSet } from "../../../engine/bpmn";
import { createBatchInsert } from "../kernel/batch-insert";
import { createTaskWrites } from "../kernel/task-writes";

function textOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "object") return null;
  return String(v);
}

/** Writes a command's ChangeSet; the caller wraps it in BEGIN IMMEDIATE. Throws RevisionConflict when an instance moved meanwhile. */
export function createPersister(db: Database) {
  const tasks = createTaskWrites(db);
  const s = {
    instIns: db.query(
      `INSERT INTO process_instances (id, tenant_id, definition_id, definition_key, version, business_key, parent_instance_id, parent_execution_id, state, started_by, channel, start_time, end_time, end_reason, revision) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)`,
    ),
    instUpd: db.query(
      `UPDATE process_instances SET state = ?, business_key = ?, end_time = ?, end_reason = ?, revision = revision + 1 WHERE id = ? AND tenant_id = ? AND revision = ?`,
    ),
    instBump: db.query(
      `UPDATE process_instances SET revision = revision + 1 WHERE id = ? AND tenant_id = ? AND revision = ?`,
    ),
    // A command's new rows of one table go in one statement (createBatchInsert): a start writes several of each.
    exIns: createBatchInsert(
      db,
      "INSERT INTO executions (id, tenant_id, instance_id, parent_id, kind, scope_id, activity_id, state, data, created_at)",
      10,
    ),
    exUpd: db.query(
      `UPDATE executions SET parent_id = ?, activity_id = ?, state = ?, data = ? WHERE instance_id = ? AND id = ? AND tenant_id = ?`,
    ),
    exDel: db.query(`DELETE FROM executions WHERE instance_id = ? AND id = ? AND tenant_id = ?`),
    varUp: createBatchInsert(
      db,
      "INSERT INTO variables (tenant_id, instance_id, execution_id, name, value, text_value)",
      6,
      "ON CONFLICT(instance_id, execution_id, name) DO UPDATE SET value = excluded.value, text_value = excluded.text_value",
    ),
    varDel: db.query(`DELETE FROM variables WHERE instance_id = ? AND execution_id = ? AND name = ? AND tenant_id = ?`),
    taskUpd: db.query(
      `UPDATE tasks SET assignee = ?, owner = ?, state = ?, completed_at = ?, completed_by = ?, channel = ? WHERE id = ? AND tenant_id = ?`,
    ),
    jobIns: db.query(
      `INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, exception, lock_owner, lock_expires_at, data, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    ),
    jobUpd: db.query(
      `UPDATE jobs SET state = ?, due_at = ?, retries = ?, exception = ?, lock_owner = ?, lock_expires_at = ?, data = ? WHERE id = ? AND tenant_id = ?`,
    ),
    jobDel: db.query(`DELETE FROM jobs WHERE id = ? AND tenant_id = ?`),
    subIns: db.query(
      `INSERT INTO event_subscriptions (id, tenant_id, instance_id, execution_id, definition_id, activity_id, type, name, data, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
    ),
    subUpd: db.query(`UPDATE event_subscriptions SET data = ? WHERE id = ? AND tenant_id = ?`),
    subDel: db.query(`DELETE FROM event_subscriptions WHERE id = ? AND tenant_id = ?`),
    actIns: createBatchInsert(
      db,
      "INSERT INTO activity_log (id, tenant_id, instance_id, execution_id, activity_id, activity_name, activity_type, start_time, end_time, task_id, who, channel, outcome)",
      13,
    ),
    actUpd: db.query(
      `UPDATE activity_log SET end_time = ?, task_id = COALESCE(?, task_id), who = COALESCE(?, who), channel = COALESCE(?, channel), outcome = ? WHERE instance_id = ? AND id = ? AND tenant_id = ?`,
    ),
  };

  return function persist(c: ChangeSet, tenantId: string): void {
    const touched = new Set<string>();
    for (const [, x] of c.executions) touched.add(x.row.instanceId);
    for (const [, x] of c.variables) touched.add(x.instanceId);
    for (const [, x] of c.tasks) touched.add(x.row.instanceId);
    for (const [, x] of c.jobs) if (x.row.instanceId) touched.add(x.row.instanceId);
    for (const [, x] of c.subscriptions) if (x.row.instanceId) touched.add(x.row.instanceId);
    // The tenant's running/ended totals and open tasks (instance_counts) follow these writes by triggers (migration 0016).
    for (const [id, x] of c.instances) {
      const r = x.row;
      if (x.op === "insert")
        s.instIns.run(
          r.id,
          r.tenantId,
          r.definitionId,
          r.definitionKey,
          r.version,
          r.businessKey,
          r.parentInstanceId,
          r.parentExecutionId,
          r.state,
          r.startedBy,
          r.channel,
          r.startTime,
          r.endTime,
          r.endReason,
        );
      else if (
        s.instUpd.run(
          r.state,
          r.businessKey,
          r.endTime,
          r.endReason,
          r.id,
          r.tenantId,
          c.baseRevisions.get(id) ?? r.revision,
        ).changes === 0
      )
        throw new RevisionConflict(id);
      touched.delete(id);
    }
    // Instances changed only through their children rows still take the revision step: that is what serialises commands.
    for (const id of touched) {
      const base = c.baseRevisions.get(id);
      if (base === undefined) continue;
      if (s.instBump.run(id, tenantId, base).changes === 0) throw new RevisionConflict(id);
    }
    const newExecutions = [];
    for (const [, x] of c.executions) {
      const r = x.row;
      if (x.op === "insert")
        newExecutions.push([
          r.id,
          r.tenantId,
          r.instanceId,
          r.parentId,
          r.kind,
          r.scopeId,
          r.activityId,
          r.state,
          JSON.stringify(r.data),
          r.createdAt,
        ]);
      else if (x.op === "update")
        s.exUpd.run(r.parentId, r.activityId, r.state, JSON.stringify(r.data), r.instanceId, r.id, r.tenantId);
      else s.exDel.run(r.instanceId, r.id, r.tenantId);
    }
    s.exIns(newExecutions);
    // Each key appears once in the map, so the upserts can go together after the deletes of other keys.
    const upserts = [];
    for (const [, v] of c.variables) {
      if (v.op === "upsert")
        upserts.push([
          v.tenantId,
          v.instanceId,
          v.executionId,
          v.name,
          JSON.stringify(v.value ?? null),
          textOf(v.value),
        ]);
      else s.varDel.run(v.instanceId, v.executionId, v.name, v.tenantId);
    }
    s.varUp(upserts);
    for (const [, x] of c.tasks) {
      const r = x.row;
      if (x.op === "insert") tasks.insert(r);
      else {
        s.taskUpd.run(r.assignee, r.owner, r.state, r.completedAt, r.completedBy, r.channel, r.id, r.tenantId);
        if (r.candidateUsers.length || r.candidateGroups.length) tasks.candidatesFollow(r.id, r.state);
      }
    }
    for (const [, x] of c.jobs) {
      const r = x.row;
      if (x.op === "insert")
        s.jobIns.run(
          r.id,
          r.tenantId,
          r.instanceId,
          r.executionId,
          r.definitionId,
          r.activityId,
          r.kind,
          r.state,
          r.dueAt,
          r.retries,
          r.exception,
          r.lockOwner,
          r.lockExpiresAt,
          JSON.stringify(r.data),
          r.createdAt,
        );
      else if (x.op === "update")
        s.jobUpd.run(
          r.state,
          r.dueAt,
          r.retries,
          r.exception,
          r.lockOwner,
          r.lockExpiresAt,
          JSON.stringify(r.data),
          r.id,
          r.tenantId,
        );
      else if (s.jobDel.run(r.id, r.tenantId).changes === 0) throw new RevisionConflict(r.instanceId ?? r.id); // ran elsewhere already
    }
    for (const [, x] of c.subscriptions) {
      const r = x.row;
      if (x.op === "insert")
        s.subIns.run(
          r.id,
          r.tenantId,
          r.instanceId,
          r.executionId,
          r.definitionId,
          r.activityId,
          r.type,
          r.name,
          JSON.stringify(r.data),
          r.createdAt,
        );
      else if (x.op === "update") s.subUpd.run(JSON.stringify(r.data), r.id, r.tenantId);
      else s.subDel.run(r.id, r.tenantId);
    }
    const newActivities = [];
    for (const [, x] of c.activities) {
      const r = x.row;
      if (x.op === "insert")
        newActivities.push([
          r.id,
          r.tenantId,
          r.instanceId,
          r.executionId,
          r.activityId,
          r.activityName,
          r.activityType,
          r.startTime,
          r.endTime,
          r.taskId,
          r.who,
          r.channel,
          r.outcome,
        ]);
      else s.actUpd.run(r.endTime, r.taskId, r.who, r.channel, r.outcome, r.instanceId, r.id, r.tenantId);
    }
    s.actIns(newActivities);
    for (const i of c.involvements) tasks.involve(i.tenantId, i.instanceId, i.kind, i.principal);
  };
}
