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
 * Open tasks of a user who does not see the whole tenant, newest first. Every source of visibility is read from an index
 * alone: candidate rows carry the task's state and creation time (task_candidates_open_idx, which holds the task id as
 * the table's key), assigned tasks come from tasks_open_assignee_idx. Only (id, created) pairs are merged and sorted,
 * and whole rows are read for the one page returned. Candidate rows written without the copied state (NULL) are checked
 * against their task row instead. A filter by instance goes to the runtime's per-instance query (a handful of rows).
 */
export function openTasksOfUser(p: Platform, tenantId: string, v: Visibility, q: { page?: number; size?: number; instanceId?: string }) {
  if (q.instanceId) return p.processRuntime.listTasks(tenantId, v, q);
  const { size, offset } = pageParams(q.page, q.size, 100, 200);
  const groups = v.groups;
  const inList = groups.map(() => "?").join(",");
  const key = `inbox:${groups.length}`;
  const principal = `((c.kind = 'user' AND c.principal = ?)${groups.length ? ` OR (c.kind = 'group' AND c.principal IN (${inList}))` : ""})`;
  const sql = `
    WITH visible(id, created) AS (
      SELECT task_id, created FROM task_candidates WHERE tenant_id = ? AND kind = 'user' AND principal = ? AND state = 'OPEN'
      ${groups.length ? `UNION SELECT task_id, created FROM task_candidates WHERE tenant_id = ? AND kind = 'group' AND principal IN (${inList}) AND state = 'OPEN'` : ""}
      UNION SELECT id, created FROM tasks WHERE tenant_id = ? AND assignee = ? AND state = 'OPEN'
      UNION SELECT t.id, t.created FROM task_candidates c CROSS JOIN tasks t ON t.id = c.task_id
        WHERE c.tenant_id = ? AND c.state IS NULL AND ${principal} AND t.state = 'OPEN'
    )
    , page(id, created) AS (SELECT id, created FROM visible ORDER BY created DESC, id LIMIT ? OFFSET ?)
    SELECT t.* FROM page p CROSS JOIN tasks t ON t.id = p.id ORDER BY p.created DESC, p.id`;
  const user = v.userId ?? "\u0000";
  const params: (string | number)[] = [tenantId, user];
  if (groups.length) params.push(tenantId, ...groups);
  params.push(tenantId, user, tenantId, user, ...groups, size, offset);
  return (statement(p, key, sql).all(...params) as Record<string, unknown>[]).map(taskViewOfRow);
}

/** `mine=true`: open tasks assigned to the user, newest first, from the open-assignee index. */
export function openTasksAssignedTo(p: Platform, tenantId: string, userId: string | null, q: { page?: number; size?: number; instanceId?: string }) {
  return p.processRuntime.listTasks(tenantId, { all: false, userId, groups: [] }, { ...q, mine: true });
}
