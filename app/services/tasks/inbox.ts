import type { Statement } from "bun:sqlite";
import type { LegacyEngineHandles } from "../context";
import { taskViewOfRow, visibleOpenTasksSql, type Visibility } from "../../runtime/bpmn/views";
import { pageParams } from "../../../db/pagination";

const statements = new WeakMap<object, Map<string, Statement>>();

function statement(p: LegacyEngineHandles, key: string, sql: string): Statement {
  let byKey = statements.get(p.engineSqlite);
  if (!byKey) statements.set(p.engineSqlite, (byKey = new Map()));
  let st = byKey.get(key);
  if (!st) byKey.set(key, (st = p.engineSqlite.query(sql)));
  return st;
}

/**
 * Open tasks of a user who does not see the whole tenant, newest first: only (id, created) pairs of the visible tasks
 * (views.ts visibleOpenTasksSql: index-only) are merged, and whole rows are read for the one page returned.
 * A filter by instance goes to the runtime's per-instance query (a handful of rows).
 */
export function openTasksOfUser(
  p: LegacyEngineHandles,
  tenantId: string,
  v: Visibility,
  q: { page?: number; size?: number; instanceId?: string },
) {
  if (q.instanceId) return p.processRuntime.listTasks(tenantId, v, q);
  const { size, offset } = pageParams(q.page, q.size, 100, 200);
  const visible = visibleOpenTasksSql(tenantId, v);
  // ORDER BY and LIMIT on the compound itself: SQLite merges the sources in date order (each read backwards from its
  // index) and stops after offset + size rows, instead of collecting and sorting every visible task first.
  const sql = `WITH page(id, created) AS (${visible.sql} ORDER BY created DESC, id LIMIT ? OFFSET ?)
    SELECT t.* FROM page p CROSS JOIN tasks t ON t.id = p.id ORDER BY p.created DESC, p.id`;
  return (
    statement(p, `inbox:${v.groups.length}`, sql).all(...visible.params, size, offset) as Record<string, unknown>[]
  ).map(taskViewOfRow);
}

/** `mine=true`: open tasks assigned to the user, newest first, from the open-assignee index. */
export function openTasksAssignedTo(
  p: LegacyEngineHandles,
  tenantId: string,
  userId: string | null,
  q: { page?: number; size?: number; instanceId?: string },
) {
  return p.processRuntime.listTasks(tenantId, { all: false, userId, groups: [] }, { ...q, mine: true });
}
