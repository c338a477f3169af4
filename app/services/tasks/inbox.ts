import type { Statement } from "bun:sqlite";
import type { Platform } from "../platform";
import { taskViewOfRow, type Visibility } from "../process-runtime/views";
import { pageParams } from "../pagination";

const statements = new WeakMap<object, Map<string, Statement>>();

function statement(p: Platform, key: string, sql: string): Statement {
  let byKey = statements.get(p.engineSqlite);
  if (!byKey) statements.set(p.engineSqlite, (byKey = new Map()));
  let st = byKey.get(key);
  if (!st) byKey.set(key, (st = p.engineSqlite.query(sql)));
  return st;
}

/**
 * Open tasks of a user who does not see the whole tenant. The candidate and assignee indexes give the ids first, so
 * the cost follows the tasks the user can see, not the tenant's size; only those rows are sorted. CROSS JOIN keeps
 * SQLite from driving the join from the tenant's open tasks instead; only ids and dates are sorted, whole rows are read
 * for the one page returned.
 */
export function openTasksOfUser(p: Platform, tenantId: string, v: Visibility, q: { page?: number; size?: number; instanceId?: string }) {
  const { size, offset } = pageParams(q.page, q.size, 100, 200);
  const groups = v.groups;
  const inList = groups.map(() => "?").join(",");
  const key = `inbox:${groups.length}:${q.instanceId ? 1 : 0}`;
  const sql = `
    WITH visible(id) AS (
      SELECT task_id FROM task_candidates WHERE tenant_id = ? AND kind = 'user' AND principal = ?
      ${groups.length ? `UNION SELECT task_id FROM task_candidates WHERE tenant_id = ? AND kind = 'group' AND principal IN (${inList})` : ""}
      UNION SELECT id FROM tasks WHERE tenant_id = ? AND assignee = ? AND state = 'OPEN'
    )
    , page(id, created) AS (
      SELECT t.id, t.created FROM visible v CROSS JOIN tasks t ON t.id = v.id
      WHERE t.tenant_id = ? AND t.state = 'OPEN' ${q.instanceId ? "AND t.instance_id = ?" : ""}
      ORDER BY t.created DESC, t.id LIMIT ? OFFSET ?
    )
    SELECT t.* FROM page p CROSS JOIN tasks t ON t.id = p.id ORDER BY p.created DESC, p.id`;
  const user = v.userId ?? "\u0000";
  const params: (string | number)[] = [tenantId, user];
  if (groups.length) params.push(tenantId, ...groups);
  params.push(tenantId, user, tenantId);
  if (q.instanceId) params.push(q.instanceId);
  params.push(size, offset);
  return (statement(p, key, sql).all(...params) as Record<string, unknown>[]).map(taskViewOfRow);
}

/** `mine=true`: tasks assigned to the user, through the assignee index (the planner would otherwise walk every open task in date order). */
export function openTasksAssignedTo(p: Platform, tenantId: string, userId: string | null, q: { page?: number; size?: number; instanceId?: string }) {
  const { size, offset } = pageParams(q.page, q.size, 100, 200);
  const sql = `SELECT t.* FROM tasks t INDEXED BY tasks_assignee_idx
    WHERE t.tenant_id = ? AND t.assignee = ? AND t.state = 'OPEN' ${q.instanceId ? "AND t.instance_id = ?" : ""}
    ORDER BY t.created DESC, t.id LIMIT ? OFFSET ?`;
  const params: (string | number)[] = [tenantId, userId ?? "\u0000", ...(q.instanceId ? [q.instanceId] : []), size, offset];
  return (statement(p, `mine:${q.instanceId ? 1 : 0}`, sql).all(...params) as Record<string, unknown>[]).map(taskViewOfRow);
}
