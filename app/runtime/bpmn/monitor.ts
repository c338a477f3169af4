import { NotFoundError } from "../../../engine/errors";
import type { ProcessModel } from "../../../engine/model/bpmn";
import type { RuntimeContext } from "./context";
import { iso, type Row } from "./rows";
import { visibleInstances, visibleOpenTasksSql, type Visibility } from "./views";

export type MonitorReason = "USER_TASK" | "JOB_FAILED" | "JOB_RETRYING" | "TIMER" | "EXECUTING";
/** The spec's byReason keys, in the order responses list them. */
export const REASONS: MonitorReason[] = ["USER_TASK", "JOB_FAILED", "JOB_RETRYING", "TIMER", "EXECUTING"];

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

  /** Where each resting token of running instances of a version is parked, and why. */
  const parked = (tenantId: string, definitionId: string): Parked[] => {
    const tokens = db
      .query(`SELECT e.id, e.activity_id, i.id AS instance_id, i.business_key, i.start_time FROM executions e JOIN process_instances i ON i.id = e.instance_id
      WHERE i.tenant_id = ? AND e.tenant_id = ? AND i.definition_id = ? AND i.state IN ('ACTIVE','SUSPENDED') AND e.kind = 'token' AND e.activity_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM executions c WHERE c.instance_id = e.instance_id AND c.parent_id = e.id)`)
      .all(tenantId, tenantId, definitionId) as Row[];
    if (!tokens.length) return [];
    const tasks = new Map<string, Row>();
    for (const t of db
      .query(
        "SELECT t.id, t.execution_id, t.assignee, t.due_date FROM tasks t JOIN process_instances i ON i.id = t.instance_id WHERE t.tenant_id = ? AND i.definition_id = ? AND t.state = 'OPEN'",
      )
      .all(tenantId, definitionId) as Row[])
      tasks.set(t.execution_id, t);
    const jobs = new Map<string, Row[]>();
    for (const j of db
      .query(
        "SELECT j.execution_id, j.kind, j.state, j.exception FROM jobs j WHERE j.tenant_id = ? AND j.definition_id = ? AND j.instance_id IS NOT NULL",
      )
      .all(tenantId, definitionId) as Row[]) {
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

  /** Version rule: the one asked for; else the one with most running instances (ties: higher); else the latest published (or latest). */
  const pickVersion = (tenantId: string, key: string, version?: number) => {
    const defs = db
      .query(
        "SELECT id, version, name, published, xml, model FROM definitions WHERE tenant_id = ? AND key = ? ORDER BY version DESC",
      )
      .all(tenantId, key) as Row[];
    if (!defs.length) throw new NotFoundError(`Definition '${key}' not found`);
    const counts = db
      .query(
        "SELECT version, COUNT(*) AS c FROM process_instances WHERE tenant_id = ? AND definition_key = ? AND state IN ('ACTIVE','SUSPENDED') GROUP BY version",
      )
      .all(tenantId, key) as Row[];
    let chosen: Row | undefined;
    if (version !== undefined && version !== null) {
      chosen = defs.find((d) => d.version === Number(version));
      if (!chosen) throw new NotFoundError(`Version ${version} of '${key}' not found`);
    } else if (counts.length) {
      const best = [...counts].sort((a, b) => b.c - a.c || b.version - a.version)[0];
      chosen = defs.find((d) => d.version === best.version);
    }
    chosen ??= defs.find((d) => d.published) ?? defs[0];
    return { chosen: chosen!, defs, counts };
  };

  return {
    monitor(tenantId: string, key: string, version?: number) {
      const { chosen, defs, counts } = pickVersion(tenantId, key, version);
      const running = (v: number) => (counts.find((c) => c.version === v)?.c as number | undefined) ?? 0;
      const total = counts.reduce((s, c) => s + (c.c as number), 0);
      const model = chosen.model ? (JSON.parse(chosen.model) as ProcessModel) : null;
      const byActivity = new Map<string, Record<string, number>>();
      for (const p of parked(tenantId, chosen.id)) {
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
      return {
        definitionKey: key,
        definitionName: chosen.name as string,
        version: chosen.version as number,
        bpmnXml: chosen.xml as string,
        runningInstances: running(chosen.version),
        runningInstancesOtherVersions: total - running(chosen.version),
        versions: defs.map((d) => ({ version: d.version as number, runningInstances: running(d.version) })),
        activities,
      };
    },

    monitorItems(tenantId: string, key: string, activityId: string, version?: number) {
      const { chosen } = pickVersion(tenantId, key, version);
      return parked(tenantId, chosen.id)
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
      // The whole tenant's totals are kept by the persister (instance_counts), not counted.
      const totals = (db
        .query("SELECT running, ended FROM instance_counts WHERE tenant_id = ?")
        .get(tenantId) as Row | null) ?? { running: 0, ended: 0 };
      const one = (sql: string, ...p: unknown[]) => (db.query(sql).get(...(p as string[])) as Row).c as number;
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
        activeTasks: v.all
          ? one("SELECT COUNT(*) AS c FROM tasks t WHERE t.tenant_id = ? AND t.state = 'OPEN'", tenantId)
          : one(`SELECT COUNT(*) AS c FROM (${tv.sql})`, ...tv.params),
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
