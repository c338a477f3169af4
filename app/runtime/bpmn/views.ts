import type { TaskRecord } from "../../../engine/bpmn";
import { iso, toTask, type Row } from "./rows";
import { pageOf, pageParams, type Page } from "../../../db/pagination";

/** Who is asking: the whole tenant (Manager and above), or one user with their process roles (groups). */
export interface Visibility {
  all: boolean;
  userId: string | null;
  groups: string[];
}

/** Task as the façade returns it (ISO dates). */
export function taskView(t: TaskRecord) {
  return {
    id: t.id,
    name: t.name,
    activityId: t.activityId,
    instanceId: t.instanceId,
    businessKey: t.businessKey,
    definitionKey: t.definitionKey,
    definitionId: t.definitionId,
    assignee: t.assignee,
    owner: t.owner,
    candidateUsers: t.candidateUsers,
    candidateGroups: t.candidateGroups,
    created: iso(t.created)!,
    dueDate: iso(t.dueDate),
    priority: t.priority,
    formKey: t.formKey,
    formVersionId: t.formVersionId,
    state: t.state,
    completedAt: iso(t.completedAt),
    completedBy: t.completedBy,
    channel: t.channel,
  };
}
export type TaskView = ReturnType<typeof taskView>;

export const taskViewOfRow = (r: Row) => taskView(toTask(r));

/** Instance summary (list rows and the base of detail). */
export function instanceView(r: Row) {
  return {
    id: r.id as string,
    businessKey: r.business_key as string | null,
    definitionKey: r.definition_key as string,
    definitionId: r.definition_id as string,
    version: r.version as number,
    type: "BPMN" as const,
    state: r.state as string,
    suspended: r.state === "SUSPENDED",
    startTime: iso(r.start_time)!,
    endTime: iso(r.end_time),
    ended: r.state === "COMPLETED" || r.state === "CANCELLED",
    endReason: r.end_reason as string | null,
    startedBy: r.started_by as string | null,
    parentInstanceId: r.parent_instance_id as string | null,
  };
}
export type InstanceView = ReturnType<typeof instanceView>;

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

/** SQL predicate restricting instance rows aliased `i` to instances the viewer takes part in. */
export function instanceVisibilitySql(v: Visibility): { sql: string; params: string[] } {
  if (v.all) return { sql: "1=1", params: [] };
  const groups = v.groups.length ? v.groups : ["\u0000"];
  return {
    sql: `EXISTS (SELECT 1 FROM involvements v WHERE v.instance_id = i.id AND v.tenant_id = i.tenant_id AND ((v.kind = 'user' AND v.principal = ?) OR (v.kind = 'group' AND v.principal IN (${groups.map(() => "?").join(",")}))))`,
    params: [v.userId ?? "\u0000", ...groups],
  };
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
 * FROM clause of the instances (aliased `i`) the viewer sees. The whole tenant reads process_instances alone; a user is
 * driven from the involvement index (principal → instance id, covering), so the cost follows the instances the user
 * takes part in, not the tenant's size: a tenant-wide scan with a per-row EXISTS reads every instance.
 */
export function visibleInstances(tenantId: string, v: Visibility): { from: string; params: string[] } {
  if (v.all) return { from: "FROM process_instances i", params: [] };
  const groups = v.groups;
  const byGroup = groups.length
    ? ` UNION SELECT instance_id FROM involvements WHERE tenant_id = ? AND kind = 'group' AND principal IN (${groups.map(() => "?").join(",")})`
    : "";
  return {
    from: `FROM (SELECT instance_id FROM involvements WHERE tenant_id = ? AND kind = 'user' AND principal = ?${byGroup}) vis CROSS JOIN process_instances i ON i.id = vis.instance_id`,
    params: [tenantId, v.userId ?? "\u0000", ...(groups.length ? [tenantId, ...groups] : [])],
  };
}

export type { Page } from "../../../db/pagination";

/** The spec's envelope (argument order kept for the runtime's callers). */
export const page = <T>(content: T[], number: number, size: number, total: number): Page<T> =>
  pageOf(content, total, number, size);

/** Zero-based page and a size clamped to [1, max], as everywhere in the API. */
export function paging(
  p: { page?: number; size?: number } | undefined,
  def: number,
  max: number,
): { page: number; size: number } {
  const { page, size } = pageParams(p?.page, p?.size, def, max);
  return { page, size };
}
