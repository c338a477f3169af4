import type { Database } from "bun:sqlite";
import { pageParams } from "../../../db/pagination";
import type { CountRow, TaskRow } from "./rows";
import { taskViewOfRow } from "./task-view";
import { visibleOpenTasksSql, type Visibility } from "./visibility";

/** How the tasklist orders: newest first, soonest due (none last), highest priority, name. */
export type TaskSort = "created" | "due" | "priority" | "name";

/** The tasklist's filters of open tasks (GET /a/tasks); every one given narrows (AND). */
export interface TaskFilter {
  mine?: boolean;
  instanceId?: string;
  processKey?: string;
  candidateGroup?: string;
  /** A user id; `unassigned` instead asks for tasks nobody holds. */
  assignee?: string;
  unassigned?: boolean;
  /** Due at or after / before these instants (epoch ms); a task without a due date matches neither. */
  dueAfter?: number;
  dueBefore?: number;
  /** Every word must appear in the name or the business key (SQLite LIKE: ASCII letters in any case). */
  text?: string;
  /** Tasks of instances holding this variable with this value (compared as text, as GET /a/instances/search). */
  varName?: string;
  varValue?: string;
  sort?: TaskSort;
}

const ORDER: Record<TaskSort, string> = {
  created: "t.created DESC, t.id DESC",
  due: "t.due_date IS NULL, t.due_date, t.created DESC, t.id DESC",
  priority: "t.priority DESC, t.created DESC, t.id DESC",
  name: "t.name, t.created DESC, t.id DESC",
};

/** True when the query asks for more than the plain inbox (which has its index-only fast paths). */
export function isFiltered(f: TaskFilter): boolean {
  return (
    !!f.processKey ||
    !!f.candidateGroup ||
    !!f.assignee ||
    !!f.unassigned ||
    f.dueAfter !== undefined ||
    f.dueBefore !== undefined ||
    !!f.text?.trim() ||
    f.varName !== undefined ||
    (!!f.sort && f.sort !== "created")
  );
}

const likeOf = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE parts (over tasks `t`) and their parameters for the filters, the viewer left aside. */
function conditions(tenantId: string, f: TaskFilter): { sql: string[]; params: (string | number)[] } {
  const sql: string[] = [];
  const params: (string | number)[] = [];
  const add = (s: string, ...p: (string | number)[]) => {
    sql.push(s);
    params.push(...p);
  };
  if (f.instanceId) add("t.instance_id = ?", f.instanceId);
  if (f.processKey) add("t.definition_key = ?", f.processKey);
  if (f.candidateGroup)
    add(
      "EXISTS (SELECT 1 FROM task_candidates c WHERE c.task_id = t.id AND c.kind = 'group' AND c.principal = ?)",
      f.candidateGroup,
    );
  if (f.unassigned) add("t.assignee IS NULL");
  else if (f.assignee) add("t.assignee = ?", f.assignee);
  if (f.dueAfter !== undefined) add("t.due_date >= ?", f.dueAfter);
  if (f.dueBefore !== undefined) add("t.due_date < ?", f.dueBefore);
  for (const w of (f.text ?? "").split(/\s+/).filter(Boolean))
    add("(t.name LIKE ? ESCAPE '\\' OR t.business_key LIKE ? ESCAPE '\\')", likeOf(w), likeOf(w));
  if (f.varName !== undefined)
    add(
      "t.instance_id IN (SELECT x.instance_id FROM variables x WHERE x.tenant_id = ? AND x.name = ? AND x.text_value = ?)",
      tenantId,
      f.varName,
      f.varValue ?? "",
    );
  return { sql, params };
}

/**
 * The source of the open tasks the viewer sees, as `FROM … WHERE …` over `t`: the whole tenant reads the open-task
 * index; a user's visible tasks come from their candidate and assignee indexes (visibleOpenTasksSql), so the cost
 * follows their inbox, not the tenant; `mine` the open-assignee index.
 */
function source(tenantId: string, v: Visibility, mine: boolean): { sql: string; params: (string | number)[] } {
  if (mine)
    return {
      sql: "FROM tasks t WHERE t.tenant_id = ? AND t.state = 'OPEN' AND t.assignee = ?",
      params: [tenantId, v.userId ?? "\u0000"],
    };
  if (v.all) return { sql: "FROM tasks t WHERE t.tenant_id = ? AND t.state = 'OPEN'", params: [tenantId] };
  const vis = visibleOpenTasksSql(tenantId, v);
  return {
    sql: `FROM (${vis.sql}) vis CROSS JOIN tasks t ON t.id = vis.id WHERE t.state = 'OPEN'`,
    params: vis.params,
  };
}

/** Filtered, sorted pages of open tasks, and their count (the tasklist's figure per filter). */
export function createTaskFilter(db: Database) {
  const build = (tenantId: string, v: Visibility, f: TaskFilter) => {
    const from = source(tenantId, v, !!f.mine);
    const where = conditions(tenantId, f);
    return {
      sql: [from.sql, ...where.sql].join(" AND "),
      params: [...from.params, ...where.params],
    };
  };
  return {
    filterTasks(tenantId: string, v: Visibility, f: TaskFilter, p: { page?: number; size?: number }) {
      const { size, offset } = pageParams(p.page, p.size, 100, 200);
      const q = build(tenantId, v, f);
      return db
        .query<TaskRow, (string | number)[]>(
          `SELECT t.* ${q.sql} ORDER BY ${ORDER[f.sort ?? "created"]} LIMIT ? OFFSET ?`,
        )
        .all(...q.params, size, offset)
        .map(taskViewOfRow);
    },
    countTasks(tenantId: string, v: Visibility, f: TaskFilter): number {
      const q = build(tenantId, v, f);
      return db.query<CountRow, (string | number)[]>(`SELECT COUNT(*) AS c ${q.sql}`).get(...q.params)?.c ?? 0;
    },
  };
}
