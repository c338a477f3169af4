import type { Database } from "bun:sqlite";
import { NotFoundError } from "../../../engine/errors";
import { page, paging } from "./paging";
import type { CountRow, TaskRow } from "./rows";
import { taskViewOfRow } from "./task-view";
import {
  instanceVisibilitySql,
  involvedInstanceIds,
  visibleInstances,
  type InstanceTable,
  type Visibility,
} from "./visibility";

/** At most this many instances in the listed state: a user's list may be read from the table (see `list`). */
const TABLE_DRIVEN_UP_TO = 2000;

/** The columns of instance_counts holding each instance table's running and ended totals. */
const KEPT: Record<InstanceTable, { running: string; ended: string }> = {
  process_instances: { running: "running", ended: "ended" },
  case_instances: { running: "running_cases", ended: "ended_cases" },
};

/**
 * The reads processes and cases share over their instance table: one instance the viewer may see, a page of them, and
 * their tasks (the task table is shared). `R` is the table's row, `V` the summary the façade answers.
 */
export function createInstanceQueries<R extends { id: string }, V>(
  db: Database,
  table: InstanceTable,
  view: (r: R) => V,
) {
  const q = {
    openTasks: db.query<TaskRow, [string, string]>(
      "SELECT * FROM tasks WHERE instance_id = ? AND +tenant_id = ? AND +state = 'OPEN' ORDER BY created",
    ),
    tasks: db.query<TaskRow, [string, string]>(
      "SELECT * FROM tasks WHERE instance_id = ? AND +tenant_id = ? ORDER BY created",
    ),
    // The whole tenant's totals kept in instance_counts (by triggers, migration 0016), the columns of this table's.
    counted: db.query<CountRow, [string]>(
      `SELECT ${KEPT[table].running} AS c FROM instance_counts WHERE tenant_id = ?`,
    ),
    countedEnded: db.query<CountRow, [string]>(
      `SELECT ${KEPT[table].ended} AS c FROM instance_counts WHERE tenant_id = ?`,
    ),
  };
  /**
   * Whether the user's involvements (instances and cases, through them or their roles) hold more than `bound` entries:
   * the rows their side would visit. Reads at most bound + 1 index entries.
   */
  const takesPartInMore = (tenantId: string, v: Visibility, bound: number): boolean => {
    const ids = involvedInstanceIds(tenantId, v, true);
    const r = db
      .query<CountRow, (string | number)[]>(`SELECT COUNT(*) AS c FROM (${ids.sql} LIMIT ?)`)
      .get(...ids.params, bound + 1);
    return (r?.c ?? 0) > bound;
  };
  return {
    /** The row, or NotFound for another tenant's id, an unknown id, and an instance the viewer takes no part in. */
    find(tenantId: string, id: string, v?: Visibility): R {
      const vis = v ? instanceVisibilitySql(v) : { sql: "1=1", params: [] };
      const r = db
        .query<R, string[]>(`SELECT i.* FROM ${table} i WHERE i.id = ? AND i.tenant_id = ? AND ${vis.sql}`)
        .get(id, tenantId, ...vis.params);
      if (!r) throw new NotFoundError(`Instance ${id} not found`);
      return r;
    },
    openTasks: (tenantId: string, id: string) => q.openTasks.all(id, tenantId).map(taskViewOfRow),
    tasks: (tenantId: string, id: string) => q.tasks.all(id, tenantId).map(taskViewOfRow),

    /**
     * One page and the total. The whole tenant's running or ended total comes from instance_counts (`counted`:
     * counting a million index entries takes ~100 ms). A user's page and total come in one pass, from whichever side
     * has fewer rows to visit: the instances they take part in (their involvements, one primary-key lookup each), or,
     * when the tenant holds at most TABLE_DRIVEN_UP_TO instances in the listed state (kept) and the user takes part in
     * more, the table itself, each row probed for an involvement. Involvements name processes and cases alike, so a
     * user in many processes would otherwise look each one up in the case table to list no case, and a long-time user's
     * running list would visit their whole history.
     */
    list(
      tenantId: string,
      v: Visibility,
      where: string,
      params: (string | number)[],
      p: { page?: number; size?: number },
      order = "i.start_time DESC",
      counted?: "running" | "ended",
      driver?: { sql: string; params: (string | number)[] },
    ) {
      const { page: n, size } = paging(p, 20, 100);
      // Ties by id ascending unless the order names its own tie-break.
      const orderBy = /\bi\.id\b/.test(order) ? order : `${order}, i.id`;
      // `driver`: a few instance ids (`id`) found first (a variable's index entries) that the whole tenant's read
      // starts from; without it, and without statistics, SQLite walked the tenant's instances probing each id.
      const { from, params: fromParams } =
        v.all && driver
          ? { from: `FROM (${driver.sql}) d CROSS JOIN ${table} i ON i.id = d.id`, params: driver.params }
          : visibleInstances(tenantId, v, table);
      const base = `${from} WHERE i.tenant_id = ? AND ${where}`;
      const args: (string | number)[] = [...fromParams, tenantId, ...params];
      const countAll = () =>
        db.query<CountRow, (string | number)[]>(`SELECT COUNT(*) AS c ${base}`).get(...args)?.c ?? 0;
      const kept = counted && (counted === "running" ? q.counted : q.countedEnded).get(tenantId)?.c;
      if (v.all) {
        const rows = db
          .query<R, (string | number)[]>(`SELECT i.* ${base} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
          .all(...args, size, n * size);
        return page(rows.map(view), n, size, kept ?? countAll());
      }
      const fromTable = kept != null && kept <= TABLE_DRIVEN_UP_TO && takesPartInMore(tenantId, v, kept);
      const vis = fromTable ? instanceVisibilitySql(v) : undefined;
      const [source, sourceArgs] = vis
        ? [`FROM ${table} i WHERE i.tenant_id = ? AND ${where} AND ${vis.sql}`, [tenantId, ...params, ...vis.params]]
        : [base, args];
      const rows = db
        .query<R & { total_count: number }, (string | number)[]>(
          `SELECT i.*, COUNT(*) OVER () AS total_count ${source} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
        )
        .all(...sourceArgs, size, n * size);
      const total = rows.length ? rows[0].total_count : n === 0 ? 0 : countAll();
      return page(rows.map(view), n, size, total);
    },
  };
}
