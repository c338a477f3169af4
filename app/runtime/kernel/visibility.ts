/** Who is asking: the whole tenant (Manager and above), or one user with their process roles (groups). */
export interface Visibility {
  all: boolean;
  userId: string | null;
  groups: string[];
}

/** SQL predicate (and its parameters) restricting task rows aliased `t` to what the viewer may see. */
export function taskVisibilitySql(v: Visibility): { sql: string; params: string[] } {
  if (v.all) return { sql: "1=1", params: [] };
  const uid = v.userId ?? "\u0000";
  const groups = v.groups.length ? v.groups : ["\u0000"];
  return {
    sql: `(t.assignee = ? OR t.completed_by = ? OR EXISTS (SELECT 1 FROM task_candidates c WHERE c.task_id = t.id AND c.tenant_id = t.tenant_id AND ((c.kind = 'user' AND c.principal = ?) OR (c.kind = 'group' AND c.principal IN (${groups.map(() => "?").join(",")})))))`,
    params: [uid, uid, uid, ...groups],
  };
}

/**
 * SQL predicate restricting instance rows aliased `i` to instances the viewer takes part in. Each probe seeks the
 * involvements' key (instance_id, kind, principal): the `+` keeps SQLite off involvements_principal_idx, of which only
 * tenant_id would be usable here, so that a probe read every involvement of the tenant (15 s for a list of 2,000 rows
 * among 200,000 involvements).
 */
export function instanceVisibilitySql(v: Visibility): { sql: string; params: string[] } {
  if (v.all) return { sql: "1=1", params: [] };
  const probe = (who: string) =>
    `EXISTS (SELECT 1 FROM involvements v WHERE v.instance_id = i.id AND ${who} AND +v.tenant_id = i.tenant_id)`;
  const byUser = probe("v.kind = 'user' AND v.principal = ?");
  const user = v.userId ?? "\u0000";
  if (!v.groups.length) return { sql: byUser, params: [user] };
  const byGroup = probe(`v.kind = 'group' AND v.principal IN (${v.groups.map(() => "?").join(",")})`);
  return { sql: `(${byUser} OR ${byGroup})`, params: [user, ...v.groups] };
}

/**
 * (id, created) of the open tasks a user who does not see the whole tenant may see, each once. Every source is read from
 * an index alone: candidate rows carry the task's state and creation time (task_candidates_open_idx, which holds the
 * task id as the table's key), assigned tasks come from tasks_open_assignee_idx. Candidate rows written without the
 * copied state (NULL) are checked against their task row instead.
 */
export function visibleOpenTasksSql(tenantId: string, v: Visibility): { sql: string; params: string[] } {
  const groups = v.groups;
  const inList = groups.map(() => "?").join(",");
  const user = v.userId ?? "\u0000";
  const principal = `((c.kind = 'user' AND c.principal = ?)${groups.length ? ` OR (c.kind = 'group' AND c.principal IN (${inList}))` : ""})`;
  const sql = `SELECT task_id AS id, created FROM task_candidates WHERE tenant_id = ? AND kind = 'user' AND principal = ? AND state = 'OPEN'
      ${groups.length ? `UNION SELECT task_id, created FROM task_candidates WHERE tenant_id = ? AND kind = 'group' AND principal IN (${inList}) AND state = 'OPEN'` : ""}
      UNION SELECT id, created FROM tasks WHERE tenant_id = ? AND assignee = ? AND state = 'OPEN'
      UNION SELECT t.id, t.created FROM task_candidates c CROSS JOIN tasks t ON t.id = c.task_id
        WHERE c.tenant_id = ? AND c.state IS NULL AND ${principal} AND t.state = 'OPEN'`;
  return {
    sql,
    params: [
      tenantId,
      user,
      ...(groups.length ? [tenantId, ...groups] : []),
      tenantId,
      user,
      tenantId,
      user,
      ...groups,
    ],
  };
}

/**
 * The ids of the instances and cases a user who does not see the whole tenant takes part in (each once), from the
 * involvement index alone (principal → instance id, covering). Processes and cases share the table: the ids of both.
 * `entries`: every index entry instead, an id held by the user and a role twice; unlike the ids each once, these come
 * one by one, so a LIMIT stops reading (the ids of two roles and more are sorted whole to be made unique first).
 */
export function involvedInstanceIds(
  tenantId: string,
  v: Visibility,
  entries = false,
): { sql: string; params: string[] } {
  const groups = v.groups;
  const byGroup = groups.length
    ? ` ${entries ? "UNION ALL" : "UNION"} SELECT instance_id FROM involvements WHERE tenant_id = ? AND kind = 'group' AND principal IN (${groups.map(() => "?").join(",")})`
    : "";
  return {
    sql: `SELECT instance_id FROM involvements WHERE tenant_id = ? AND kind = 'user' AND principal = ?${byGroup}`,
    params: [tenantId, v.userId ?? "\u0000", ...(groups.length ? [tenantId, ...groups] : [])],
  };
}

/**
 * FROM clause of the instances or cases (aliased `i`) the viewer sees. The whole tenant reads the table alone; a user is
 * driven from the involvement index (principal → instance id, covering), so the cost follows the instances the user
 * takes part in, not the tenant's size: a tenant-wide scan with a per-row EXISTS reads every instance.
 */
export function visibleInstances(
  tenantId: string,
  v: Visibility,
  table: InstanceTable = "process_instances",
): { from: string; params: string[] } {
  if (v.all) return { from: `FROM ${table} i`, params: [] };
  const ids = involvedInstanceIds(tenantId, v);
  return { from: `FROM (${ids.sql}) vis CROSS JOIN ${table} i ON i.id = vis.instance_id`, params: ids.params };
}

/** The two tables of instances: processes and cases (both keyed by id, both with involvements). */
export type InstanceTable = "process_instances" | "case_instances";
