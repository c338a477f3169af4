import type { Database } from "bun:sqlite";
import type { TaskRecord } from "../../../engine/bpmn";

/**
 * Writes to the task table both engines share (their tasks differ only in what the instance id names), and to the
 * involvements that make an instance visible to the people who take part in it. The caller holds the transaction.
 */
export function createTaskWrites(db: Database) {
  const q = {
    insert: db.query(
      `INSERT INTO tasks (id, tenant_id, instance_id, execution_id, activity_id, name, business_key, definition_key, definition_id, assignee, owner, candidate_users, candidate_groups, created, due_date, priority, form_key, form_version_id, state, completed_at, completed_by, channel) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    ),
    // candidate rows carry the task's state and creation time: the inbox reads open candidacies from their index alone
    candidate: db.query(
      "INSERT OR IGNORE INTO task_candidates (task_id, tenant_id, kind, principal, state, created) VALUES (?,?,?,?,?,?)",
    ),
    candidateState: db.query("UPDATE task_candidates SET state = ? WHERE task_id = ? AND state IS NOT ?"),
    involve: db.query("INSERT OR IGNORE INTO involvements (tenant_id, instance_id, kind, principal) VALUES (?,?,?,?)"),
  };
  return {
    insert(t: TaskRecord): void {
      q.insert.run(
        t.id,
        t.tenantId,
        t.instanceId,
        t.executionId,
        t.activityId,
        t.name,
        t.businessKey,
        t.definitionKey,
        t.definitionId,
        t.assignee,
        t.owner,
        JSON.stringify(t.candidateUsers),
        JSON.stringify(t.candidateGroups),
        t.created,
        t.dueDate,
        t.priority,
        t.formKey,
        t.formVersionId,
        t.state,
        t.completedAt,
        t.completedBy,
        t.channel,
      );
      for (const u of t.candidateUsers) q.candidate.run(t.id, t.tenantId, "user", u, t.state, t.created);
      for (const g of t.candidateGroups) q.candidate.run(t.id, t.tenantId, "group", g, t.state, t.created);
    },
    /** The candidates' copy of the state leaves the open index with the task. */
    candidatesFollow(taskId: string, state: string): void {
      q.candidateState.run(state, taskId, state);
    },
    involve(tenantId: string, instanceId: string, kind: string, principal: string): void {
      q.involve.run(tenantId, instanceId, kind, principal);
    },
  };
}
export type TaskWrites = ReturnType<typeof createTaskWrites>;
