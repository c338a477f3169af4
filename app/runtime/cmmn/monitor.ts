import type { CountRow } from "../kernel/rows";
import { iso } from "../kernel/rows";
import type { CaseContext } from "./context";

/**
 * Monitor reasons of case work: a person's task, a waiting timer, a step running elsewhere (process/case task, an
 * agent's run, a robot's job: JOB_RETRYING after a reported failure, JOB_FAILED once dead-lettered), or a failed
 * agent step waiting to be reactivated (JOB_FAILED).
 */
const REASON_SQL = `CASE
  WHEN p.type = 'humanTask' AND p.state = 'ACTIVE' THEN 'USER_TASK'
  WHEN p.type = 'timerEventListener' AND p.state = 'AVAILABLE' THEN 'TIMER'
  WHEN p.type IN ('processTask', 'caseTask', 'decisionTask') AND p.state = 'ACTIVE' THEN 'EXECUTING'
  WHEN p.type = 'task' AND p.state = 'ACTIVE' AND json_extract(p.data, '$.jobId') IS NOT NULL THEN COALESCE(
    (SELECT CASE WHEN j.state = 'DEADLETTER' THEN 'JOB_FAILED' WHEN j.exception IS NOT NULL THEN 'JOB_RETRYING' END
     FROM jobs j WHERE j.id = json_extract(p.data, '$.jobId')), 'EXECUTING')
  WHEN p.type = 'task' AND p.state = 'ACTIVE' AND json_extract(p.data, '$.agent') IS NOT NULL THEN 'EXECUTING'
  WHEN p.type = 'task' AND p.state = 'FAILED' THEN 'JOB_FAILED'
END`;

interface ActivityCount {
  activityId: string;
  activityName: string;
  activityType: string;
  count: number;
  byReason: Record<string, number>;
}
type ReasonRow = Omit<ActivityCount, "count" | "byReason"> & CountRow & { reason: string };
interface ParkedRow {
  instanceId: string;
  businessKey: string | null;
  startTime: number;
  reason: string;
  taskId: string | null;
  assignee: string | null;
  dueDate: number | null;
}
type Live = { element_id: string; name: string; type: string; state: string } & CountRow;

/** The monitor of a case definition in the shape processes answer (the version rule is the kernel's). */
export function createCaseMonitor(ctx: CaseContext) {
  const { db, kernel } = ctx;
  const q = {
    running: db.query<{ version: number } & CountRow, [string, string]>(
      "SELECT version, COUNT(*) AS c FROM case_instances WHERE tenant_id = ? AND definition_key = ? AND state = 'ACTIVE' GROUP BY version",
    ),
    byActivity: db.query<ReasonRow, [string, string, string, number]>(
      `SELECT p.element_id AS activityId, p.name AS activityName, p.type AS activityType, ${REASON_SQL} AS reason, COUNT(*) AS c
      FROM case_plan_items p JOIN case_instances i ON i.id = p.case_instance_id
      WHERE i.tenant_id = ? AND p.tenant_id = ? AND i.definition_key = ? AND i.version = ? AND i.state = 'ACTIVE' AND (${REASON_SQL}) IS NOT NULL
      GROUP BY p.element_id, reason`,
    ),
    // The task of a plan item is found among its case's tasks (tasks_instance_idx), not among the tenant's open
    // tasks; `+i.start_time` keeps the order from choosing the tenant's running cases over the definition's.
    items: db.query<ParkedRow, [string, string, string, number, string]>(
      `SELECT i.id AS instanceId, i.business_key AS businessKey, i.start_time AS startTime, ${REASON_SQL} AS reason, t.id AS taskId, t.assignee, t.due_date AS dueDate
      FROM case_plan_items p JOIN case_instances i ON i.id = p.case_instance_id
      LEFT JOIN tasks t ON t.instance_id = p.case_instance_id AND t.execution_id = p.id AND +t.tenant_id = p.tenant_id AND +t.state = 'OPEN'
      WHERE i.tenant_id = ? AND p.tenant_id = ? AND i.definition_key = ? AND i.version = ? AND i.state = 'ACTIVE' AND p.element_id = ? AND (${REASON_SQL}) IS NOT NULL
      ORDER BY +i.start_time`,
    ),
    live: db.query<Live, [string, string, string]>(
      `SELECT p.element_id, p.name, p.type, p.state, COUNT(*) AS c FROM case_plan_items p JOIN case_instances i ON i.id = p.case_instance_id
      WHERE i.tenant_id = ? AND p.tenant_id = ? AND i.definition_key = ? AND i.state = 'ACTIVE' AND p.type <> 'planModel' AND p.state IN ('AVAILABLE','ENABLED','ACTIVE','FAILED','DISABLED','WAITING_FOR_REPETITION')
      GROUP BY p.element_id, p.state ORDER BY p.element_id`,
    ),
  };
  const pick = (tenantId: string, key: string, version?: number) =>
    kernel.definitions.pickVersion(tenantId, key, q.running.all(tenantId, key), version);
  const byCount = (a: ActivityCount, b: ActivityCount) => b.count - a.count || a.activityId.localeCompare(b.activityId);
  /** Adds `n` under `reason` to the activity's counter in `out`. */
  const add = (
    out: Map<string, ActivityCount>,
    a: Omit<ActivityCount, "count" | "byReason">,
    reason: string,
    n: number,
  ) => {
    const c = out.get(a.activityId) ?? { ...a, count: 0, byReason: {} };
    c.byReason[reason] = (c.byReason[reason] ?? 0) + n;
    c.count += n;
    out.set(a.activityId, c);
  };

  return {
    /** GET /a/definitions/{key}/monitor for a case definition. */
    monitor(tenantId: string, key: string, version?: number) {
      const { chosen: _, ...summary } = pick(tenantId, key, version);
      const out = new Map<string, ActivityCount>();
      for (const r of q.byActivity.all(tenantId, tenantId, key, summary.version))
        add(
          out,
          { activityId: r.activityId, activityName: r.activityName, activityType: r.activityType },
          r.reason,
          r.c,
        );
      return { definitionKey: key, ...summary, activities: [...out.values()].sort(byCount) };
    },

    /** GET /a/definitions/{key}/monitor/{activityId} for a case definition. */
    monitorItems(tenantId: string, key: string, activityId: string, version?: number) {
      const { version: v } = pick(tenantId, key, version);
      return q.items.all(tenantId, tenantId, key, v, activityId).map((r) => ({
        instanceId: r.instanceId,
        businessKey: r.businessKey,
        startTime: iso(r.startTime)!,
        reason: r.reason,
        ...(r.reason === "USER_TASK"
          ? { taskId: r.taskId!, assignee: r.assignee ?? null, dueDate: iso(r.dueDate) }
          : {}),
      }));
    },

    /** Live plan items of running cases of a definition key, counted per element and state. */
    activeCounts(tenantId: string, definitionKey: string) {
      const out = new Map<string, ActivityCount>();
      for (const r of q.live.all(tenantId, tenantId, definitionKey)) {
        const reason =
          r.type === "humanTask" && r.state === "ACTIVE"
            ? "USER_TASK"
            : r.type === "timerEventListener"
              ? "TIMER"
              : r.state;
        add(out, { activityId: r.element_id, activityName: r.name, activityType: r.type }, reason, r.c);
      }
      return [...out.values()].sort(byCount);
    },
  };
}
