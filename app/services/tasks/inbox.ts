import type { Database, Statement } from "bun:sqlite";
import type { TenantCtx } from "../context";
import { taskViewOfRow, visibleOpenTasksSql, type Visibility } from "../../runtime/bpmn/views";
import { pageParams } from "../../../db/pagination";

/**
 * TRANSITIONAL: the inbox query moves into app/runtime; until then it uses the engine handle the request ctx still
 * carries (never a port).
 */
export type InboxCtx = TenantCtx<"processRuntime"> & { platform: { engineSqlite: Database } };
type InboxQuery = { page?: number; size?: number; instanceId?: string };

const statements = new WeakMap<object, Map<string, Statement>>();

function statement(p: { engineSqlite: Database }, key: string, sql: string): Statement {
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
export function openTasksOfUser({ ctx, input }: { ctx: InboxCtx; input: InboxQuery & { visibility: Visibility } }) {
  const [p, tenantId, { visibility: v, ...q }] = [ctx.platform, ctx.tenant.id, input];
  if (q.instanceId) return ctx.processRuntime.listTasks(tenantId, v, q);
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
export function openTasksAssignedTo({ ctx, input }: { ctx: TenantCtx<"processRuntime">; input: InboxQuery }) {
  const userId = ctx.actor.userId;
  return ctx.processRuntime.listTasks(ctx.tenant.id, { all: false, userId, groups: [] }, { ...input, mine: true });
}
