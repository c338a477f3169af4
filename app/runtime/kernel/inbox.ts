import type { Database } from "bun:sqlite";
import { pageParams } from "../../../db/pagination";
import type { TaskRow } from "./rows";
import { taskViewOfRow } from "./task-view";
import { visibleOpenTasksSql, type Visibility } from "./visibility";

/**
 * Open tasks (of processes and cases: the task table is shared) of a user who does not see the whole tenant, newest
 * first: only (id, created) pairs of the visible tasks (visibleOpenTasksSql: index-only) are merged, and whole rows are
 * read for the one page returned. Statements are prepared once per number of groups.
 */
export function createInbox(db: Database) {
  const statements = new Map<number, ReturnType<typeof prepare>>();
  const prepare = (sql: string) => db.query<TaskRow, (string | number)[]>(sql);
  return function openTasksOfUser(tenantId: string, v: Visibility, q: { page?: number; size?: number }) {
    const { size, offset } = pageParams(q.page, q.size, 100, 200);
    const visible = visibleOpenTasksSql(tenantId, v);
    let st = statements.get(v.groups.length);
    // ORDER BY and LIMIT on the compound itself: SQLite merges the sources in date order (each read backwards from its
    // index) and stops after offset + size rows, instead of collecting and sorting every visible task first. Ties go
    // by id descending, the order an index read backwards gives (id ascending made SQLite sort each source).
    if (!st)
      statements.set(
        v.groups.length,
        (st = prepare(`WITH page(id, created) AS (${visible.sql} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?)
    SELECT t.* FROM page p CROSS JOIN tasks t ON t.id = p.id ORDER BY p.created DESC, p.id DESC`)),
      );
    return st.all(...visible.params, size, offset).map(taskViewOfRow);
  };
}
