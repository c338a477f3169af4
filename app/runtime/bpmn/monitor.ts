import type { ProcessModel } from "../../../engine/model/bpmn";
import type { RuntimeContext } from "./context";
import { iso, type CountRow, type JobRow, type TaskRow } from "../kernel/rows";
import { visibleInstances, visibleOpenTasksSql, type Visibility } from "./views";

export type MonitorReason = "USER_TASK" | "JOB_FAILED" | "JOB_RETRYING" | "TIMER" | "EXECUTING";
/** The spec's byReason keys, in the order responses list them. */
export const REASONS: MonitorReason[] = ["USER_TASK", "JOB_FAILED", "JOB_RETRYING", "TIMER", "EXECUTING"];

interface Token {
  id: string;
  activity_id: string;
  instance_id: string;
  business_key: string | null;
  start_time: number;
}
type ParkedTask = Pick<TaskRow, "id" | "execution_id" | "assignee" | "due_date">;
/** tenant, definition key, version and id (the running instances), then the tenant of the row read. */
type ParkedArgs = [string, string, number, string, string];
type ParkedJob = Pick<JobRow, "execution_id" | "kind" | "state" | "exception">;

interface Parked {
  instanceId: string;
  businessKey: string | null;
  startTime: number;
  activityId: string;
  reason: MonitorReason;
  taskId?: string;
  assignee?: string | null;
  dueDate?: number | null;
  errorMessage?: string | null;
}

/** Monitor summary and drill-down (the spec's Monitor response), and the dashboard counters. */
export function createMonitor(ctx: RuntimeContext) {
  const { db } = ctx;

  /**
   * Where each resting token of running instances of a version is parked, and why. Every read starts from the
   * version's running instances (process_instances_definition_idx) and reaches their executions, tasks and jobs by
   * instance: started from the tenant's running instances, open tasks or jobs, they walked the whole tenant.
   */
  const parked = (tenantId: string, def: { id: string; key: string; version: number }): Parked[] => {
    const args: ParkedArgs = [tenantId, def.key, def.version, def.id, tenantId];
    const running = `i.tenant_id = ? AND i.definition_key = ? AND i.version = ? AND i.state IN ('ACTIVE','SUSPENDED')
      AND i.definition_id = ?`;
    const tokens = db
      .query<Token, ParkedArgs>(
        `SELECT e.id, e.activity_id, i.id AS instance_id, i.business_key, i.start_time FROM executions e JOIN process_instances i ON e.instance_id = i.id
      WHERE ${running} AND +e.tenant_id = ? AND e.kind = 'token' AND e.activity_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM executions c WHERE c.instance_id = e.instance_id AND c.parent_id = e.id)`,
      )
      .all(...args);
    if (!tokens.length) return [];
    const tasks = new Map<string, ParkedTask>();
    for (const t of db
      .query<ParkedTask, ParkedArgs>(
        `SELECT t.id, t.execution_id, t.assignee, t.due_date FROM process_instances i CROSS JOIN tasks t ON t.instance_id = i.id
        WHERE ${running} AND +t.tenant_id = ? AND +t.state = 'OPEN'`,
      )
      .all(...args))
      tasks.set(t.execution_id, t);
    const jobs = new Map<string | null, ParkedJob[]>();
    for (const j of db
      .query<ParkedJob, ParkedArgs>(
        `SELECT j.execution_id, j.kind, j.state, j.exception FROM process_instances i CROSS JOIN jobs j ON j.instance_id = i.id
        WHERE ${running} AND +j.tenant_id = ? AND +j.definition_id = i.definition_id`,
      )
      .all(...args)) {
      const l = jobs.get(j.execution_id) ?? [];
      l.push(j);
      jobs.set(j.execution_id, l);
    }
    return tokens.map((e) => {
      const base = {
        instanceId: e.instance_id,
        businessKey: e.business_key,
        startTime: e.start_time,
        activityId: e.activity_id,
      };
      const task = tasks.get(e.id);
      if (task)
        return {
          ...base,
          reason: "USER_TASK" as const,
          taskId: task.id,
          assignee: task.assignee,
          dueDate: task.due_date,
        };
      const js = jobs.get(e.id) ?? [];
      const dead = js.find((j) => j.state === "DEADLETTER");
      if (dead) return { ...base, reason: "JOB_FAILED" as const, errorMessage: dead.exception };
      const retrying = js.find((j) => j.exception);
      if (retrying) return { ...base, reason: "JOB_RETRYING" as const, errorMessage: retrying.exception };
      if (js.some((j) => j.kind === "timer")) return { ...base, reason: "TIMER" as const };
      return { ...base, reason: "EXECUTING" as const };
    });
  };

  const running = db.query<{ version: number } & CountRow, [string, string]>(
    "SELECT version, COUNT(*) AS c FROM process_instances WHERE tenant_id = ? AND definition_key = ? AND state IN ('ACTIVE','SUSPENDED') GROUP BY version",
  );
  /** The kernel's version rule over the running process instances of the key. */
  const pickVersion = (tenantId: string, key: string, version?: number) =>
    ctx.kernel.definitions.pickVersion(tenantId, key, running.all(tenantId, key), version);

  return {
    monitor(tenantId: string, key: string, version?: number) {
      const { chosen, ...summary } = pickVersion(tenantId, key, version);
      const model = ctx.kernel.definitions.definition<ProcessModel>(chosen.id)?.model ?? null;
      const byActivity = new Map<string, Record<string, number>>();
      for (const p of parked(tenantId, { id: chosen.id, key, version: chosen.version })) {
        const m = byActivity.get(p.activityId) ?? {};
        m[p.reason] = (m[p.reason] ?? 0) + 1;
        byActivity.set(p.activityId, m);
      }
      const activities = [...byActivity.entries()]
        .map(([activityId, byReason]) => {
          const el = model?.elements[activityId];
          const ordered: Record<string, number> = {};
          for (const r of REASONS) if (byReason[r]) ordered[r] = byReason[r];
          return {
            activityId,
            activityName: el?.name || activityId,
            activityType: el?.type ?? "unknown",
            count: Object.values(byReason).reduce((a, b) => a + b, 0),
            byReason: ordered,
          };
        })
        .sort((a, b) => b.count - a.count || a.activityId.localeCompare(b.activityId));
      return { definitionKey: key, ...summary, activities };
    },

    monitorItems(tenantId: string, key: string, activityId: string, version?: number) {
      const { chosen } = pickVersion(tenantId, key, version);
      return parked(tenantId, { id: chosen.id, key, version: chosen.version })
        .filter((p) => p.activityId === activityId)
        .map((p) => ({
          instanceId: p.instanceId,
          businessKey: p.businessKey,
          startTime: iso(p.startTime)!,
          reason: p.reason,
          ...(p.reason === "USER_TASK"
            ? { taskId: p.taskId, assignee: p.assignee ?? null, dueDate: iso(p.dueDate) }
            : {}),
          ...(p.reason === "JOB_FAILED" || p.reason === "JOB_RETRYING" ? { errorMessage: p.errorMessage ?? null } : {}),
        }));
    },

    /** Counters by the viewer's visibility; the definitions counter stays tenant-wide. */
    dashboard(tenantId: string, v: Visibility) {
      const iv = visibleInstances(tenantId, v),
        tv = visibleOpenTasksSql(tenantId, v);
      // The whole tenant's totals are kept (instance_counts, by triggers of migration 0016), not counted.
      const totals = db
        .query<{ running: number; ended: number; open_tasks: number }, [string]>(
          "SELECT running, ended, open_tasks FROM instance_counts WHERE tenant_id = ?",
        )
        .get(tenantId) ?? { running: 0, ended: 0, open_tasks: 0 };
      const one = (sql: string, ...p: string[]) => db.query<CountRow, string[]>(sql).get(...p)?.c ?? 0;
      return {
        definitions: one("SELECT COUNT(DISTINCT key) AS c FROM definitions WHERE tenant_id = ?", tenantId),
        runningInstances: v.all
          ? totals.running
          : one(
              `SELECT COUNT(*) AS c ${iv.from} WHERE i.tenant_id = ? AND i.state IN ('ACTIVE','SUSPENDED')`,
              ...iv.params,
              tenantId,
            ),
        finishedInstances: v.all
          ? totals.ended
          : one(
              `SELECT COUNT(*) AS c ${iv.from} WHERE i.tenant_id = ? AND i.state IN ('COMPLETED','CANCELLED')`,
              ...iv.params,
              tenantId,
            ),
        activeTasks: v.all ? totals.open_tasks : one(`SELECT COUNT(*) AS c FROM (${tv.sql})`, ...tv.params),
        myTasks: one(
          "SELECT COUNT(*) AS c FROM tasks t WHERE t.tenant_id = ? AND t.state = 'OPEN' AND t.assignee = ?",
          tenantId,
          v.userId ?? "\u0000",
        ),
        failedJobs: v.all
          ? one("SELECT COUNT(*) AS c FROM jobs WHERE tenant_id = ? AND state = 'DEADLETTER'", tenantId)
          : 0,
      };
    },
  };
}
