import type { Database } from "bun:sqlite";
import type { CaseChanges, CaseDefinition, LoadedCase, PlanItemInstance } from "../../../engine/cmmn";
import { ConflictError, RevisionConflict } from "../../../engine/errors";
import type { CaseModel } from "../../../engine/model/cmmn";
import type { Row } from "../bpmn/rows";

export const toItem = (r: Row): PlanItemInstance => ({
  id: r.id,
  tenantId: r.tenant_id,
  caseInstanceId: r.case_instance_id,
  stageInstanceId: r.stage_instance_id,
  elementId: r.element_id,
  definitionRef: r.definition_ref,
  name: r.name,
  type: r.type,
  state: r.state,
  seq: r.seq,
  createdAt: r.created_at,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  endedBy: r.ended_by,
  channel: r.channel,
  data: JSON.parse(r.data),
});

/** Reads cases and definitions for the engine and writes a command's changes (the caller holds the transaction). */
export function createCaseStore(db: Database) {
  const defCache = new Map<string, CaseDefinition>();
  const q = {
    def: db.query("SELECT id, key, version, model FROM definitions WHERE id = ? AND type = 'CMMN'"),
    startable: db.query(
      "SELECT id FROM definitions WHERE tenant_id = ? AND key = ? AND type = 'CMMN' ORDER BY published DESC, version DESC LIMIT 1",
    ),
    inst: db.query("SELECT * FROM case_instances WHERE id = ? AND tenant_id = ?"),
    // +tenant_id: the primary key (case_instance_id, id) drives, the tenant is checked on the rows it finds
    items: db.query("SELECT * FROM case_plan_items WHERE case_instance_id = ? AND +tenant_id = ? ORDER BY seq"),
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
    taskIns: db.query(
      `INSERT INTO tasks (id, tenant_id, instance_id, execution_id, activity_id, name, business_key, definition_key, definition_id, assignee, owner, candidate_users, candidate_groups, created, due_date, priority, form_key, form_version_id, state, completed_at, completed_by, channel) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    ),
    taskEnd: db.query(
      "UPDATE tasks SET state = ?, completed_at = ?, completed_by = ?, channel = ? WHERE id = ? AND tenant_id = ? AND state = 'OPEN'",
    ),
    // candidate rows carry the task's state and creation time: the inbox reads open candidacies from their index alone
    candIns: db.query(
      "INSERT OR IGNORE INTO task_candidates (task_id, tenant_id, kind, principal, state, created) VALUES (?,?,?,?,?,?)",
    ),
    candState: db.query("UPDATE task_candidates SET state = ? WHERE task_id = ? AND state IS NOT ?"),
    timerIns: db.query(
      "INSERT INTO case_timers (id, tenant_id, case_instance_id, plan_item_instance_id, element_id, due_at, repeat, created_at) VALUES (?,?,?,?,?,?,?,?)",
    ),
    timerDel: db.query(
      "DELETE FROM case_timers WHERE case_instance_id = ? AND plan_item_instance_id = ? AND tenant_id = ?",
    ),
    invIns: db.query("INSERT OR IGNORE INTO involvements (tenant_id, instance_id, kind, principal) VALUES (?,?,?,?)"),
  };

  const loadDefinition = (id: string): CaseDefinition | null => {
    const hit = defCache.get(id);
    if (hit) return hit;
    const r = q.def.get(id) as Row | null;
    if (!r) return null;
    const d: CaseDefinition = { id: r.id, key: r.key, version: r.version, model: JSON.parse(r.model) as CaseModel };
    defCache.set(id, d);
    return d;
  };

  return {
    loadDefinition,
    startableDefinition(tenantId: string, key: string): CaseDefinition | null {
      const r = q.startable.get(tenantId, key) as Row | null;
      return r ? loadDefinition(r.id) : null;
    },
    loadCase(tenantId: string, caseId: string): LoadedCase | null {
      const r = q.inst.get(caseId, tenantId) as Row | null;
      if (!r) return null;
      const definition = loadDefinition(r.definition_id);
      if (!definition) return null;
      const instance = {
        id: r.id,
        tenantId: r.tenant_id,
        definitionId: r.definition_id,
        definitionKey: r.definition_key,
        version: r.version,
        businessKey: r.business_key,
        parentCaseId: r.parent_case_id,
        parentPlanItemId: r.parent_plan_item_id,
        state: r.state,
        startedBy: r.started_by,
        channel: r.channel,
        startTime: r.start_time,
        endTime: r.end_time,
        endReason: r.end_reason,
        variables: JSON.parse(r.variables),
        revision: r.revision,
      };
      const items = (q.items.all(caseId, tenantId) as Row[]).map(toItem);
      return {
        instance,
        items,
        definition,
        isNew: false,
        baseRevision: r.revision,
        baseState: r.state,
        newItems: new Set(),
        dirtyItems: new Set(),
      };
    },

    /** Writes everything a command changed; a case another command moved meanwhile raises RevisionConflict (the command is retried). */
    persist(c: CaseChanges): void {
      const tenantOf = new Map(c.tasksCreated.map((t) => [t.id, t.tenantId]));
      const anyTenant = [...c.cases.values()][0]?.instance.tenantId;
      for (const t of c.tasksCreated) {
        q.taskIns.run(
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
        for (const u of t.candidateUsers) q.candIns.run(t.id, t.tenantId, "user", u, t.state, t.created);
        for (const g of t.candidateGroups) q.candIns.run(t.id, t.tenantId, "group", g, t.state, t.created);
      }
      // A completion only counts if the task is still open when written: exactly one of two racing completions wins.
      for (const e of c.tasksEnded) {
        if (q.taskEnd.run(e.state, e.at, e.by, e.channel, e.id, tenantOf.get(e.id) ?? anyTenant).changes === 0) {
          if (e.state === "COMPLETED") throw new ConflictError(`Task ${e.id} was completed meanwhile`);
          continue;
        }
        q.candState.run(e.state, e.id, e.state);
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
          t.elementId,
          t.dueAt,
          t.repeat ? JSON.stringify(t.repeat) : null,
          t.createdAt,
        );
      const seen = new Set<string>();
      for (const v of c.involvements) {
        const key = `${v.instanceId}\u0000${v.kind}\u0000${v.principal}`;
        if (!seen.has(key)) {
          seen.add(key);
          q.invIns.run(v.tenantId, v.instanceId, v.kind, v.principal);
        }
      }
    },
  };
}
export type CaseStore = ReturnType<typeof createCaseStore>;
