import { engineHandlesOf, type LegacyEngineHandles, type TenantCtx } from "../context";
import { NotFoundError } from "../errors";

type Row = Record<string, unknown>;

/** Monitor reasons of case work: a person's task, a waiting timer, or a step running elsewhere (process/case task). */
const REASON_SQL = `CASE
  WHEN p.type = 'humanTask' AND p.state = 'ACTIVE' THEN 'USER_TASK'
  WHEN p.type = 'timerEventListener' AND p.state = 'AVAILABLE' THEN 'TIMER'
  WHEN p.type IN ('processTask', 'caseTask', 'decisionTask') AND p.state = 'ACTIVE' THEN 'EXECUTING'
END`;

/** The version rule of the spec: most running instances (ties: higher), else the published version, else the latest. */
function chooseVersion(p: LegacyEngineHandles, tenantId: string, key: string, requested?: number) {
  const defs = p.engineSqlite
    .query(
      "SELECT id, name, version, xml, published FROM definitions WHERE tenant_id = ? AND key = ? ORDER BY version DESC",
    )
    .all(tenantId, key) as Row[];
  if (!defs.length) throw new NotFoundError(`Definition '${key}' not found`);
  const counts = p.engineSqlite
    .query(
      "SELECT version, COUNT(*) AS c FROM case_instances WHERE tenant_id = ? AND definition_key = ? AND state = 'ACTIVE' GROUP BY version",
    )
    .all(tenantId, key) as { version: number; c: number }[];
  const running = (v: number) => counts.find((c) => c.version === v)?.c ?? 0;
  let chosen: Row | undefined;
  if (requested !== undefined) {
    chosen = defs.find((d) => d.version === requested);
    if (!chosen) throw new NotFoundError(`Version ${requested} of '${key}' not found`);
  } else if (counts.length) {
    const best = [...counts].sort((a, b) => b.c - a.c || b.version - a.version)[0];
    chosen = defs.find((d) => d.version === best.version);
  }
  chosen ??= defs.find((d) => d.published) ?? defs[0];
  return { chosen, defs, running, total: counts.reduce((s, c) => s + c.c, 0) };
}

/** GET /a/definitions/{key}/monitor for a case definition, in the same shape as for processes. */
export function caseMonitor(ctx: TenantCtx, tenantId: string, key: string, version?: number) {
  const p = engineHandlesOf(ctx);
  const { chosen, defs, running, total } = chooseVersion(p, tenantId, key, version);
  const rows = p.engineSqlite
    .query(`SELECT p.element_id AS activityId, p.name AS activityName, p.type AS activityType, ${REASON_SQL} AS reason, COUNT(*) AS c
      FROM case_plan_items p JOIN case_instances i ON i.id = p.case_instance_id
      WHERE i.tenant_id = ? AND p.tenant_id = ? AND i.definition_key = ? AND i.version = ? AND i.state = 'ACTIVE' AND (${REASON_SQL}) IS NOT NULL
      GROUP BY p.element_id, reason`)
    .all(tenantId, tenantId, key, chosen.version as number) as Row[];
  const byActivity = new Map<
    string,
    { activityId: string; activityName: string; activityType: string; count: number; byReason: Record<string, number> }
  >();
  for (const r of rows) {
    const a = byActivity.get(r.activityId as string) ?? {
      activityId: r.activityId as string,
      activityName: r.activityName as string,
      activityType: r.activityType as string,
      count: 0,
      byReason: {},
    };
    a.byReason[r.reason as string] = r.c as number;
    a.count += r.c as number;
    byActivity.set(a.activityId, a);
  }
  return {
    definitionKey: key,
    definitionName: chosen.name as string,
    version: chosen.version as number,
    bpmnXml: chosen.xml as string,
    runningInstances: running(chosen.version as number),
    runningInstancesOtherVersions: total - running(chosen.version as number),
    versions: defs.map((d) => ({ version: d.version as number, runningInstances: running(d.version as number) })),
    activities: [...byActivity.values()].sort((a, b) => b.count - a.count || a.activityId.localeCompare(b.activityId)),
  };
}

/** GET /a/definitions/{key}/monitor/{activityId} for a case definition. */
export function caseMonitorItems(ctx: TenantCtx, tenantId: string, key: string, activityId: string, version?: number) {
  const p = engineHandlesOf(ctx);
  const { chosen } = chooseVersion(p, tenantId, key, version);
  const rows = p.engineSqlite
    .query(`SELECT i.id AS instanceId, i.business_key AS businessKey, i.start_time AS startTime, ${REASON_SQL} AS reason, t.id AS taskId, t.assignee, t.due_date AS dueDate
      FROM case_plan_items p JOIN case_instances i ON i.id = p.case_instance_id
      LEFT JOIN tasks t ON t.execution_id = p.id AND t.tenant_id = p.tenant_id AND t.state = 'OPEN'
      WHERE i.tenant_id = ? AND p.tenant_id = ? AND i.definition_key = ? AND i.version = ? AND i.state = 'ACTIVE' AND p.element_id = ? AND (${REASON_SQL}) IS NOT NULL
      ORDER BY i.start_time`)
    .all(tenantId, tenantId, key, chosen.version as number, activityId) as Row[];
  const iso = (ms: unknown) => (typeof ms === "number" ? new Date(ms).toISOString() : null);
  return rows.map((r) => ({
    instanceId: r.instanceId as string,
    businessKey: r.businessKey as string | null,
    startTime: iso(r.startTime)!,
    reason: r.reason as string,
    ...(r.reason === "USER_TASK"
      ? { taskId: r.taskId as string, assignee: (r.assignee as string | null) ?? null, dueDate: iso(r.dueDate) }
      : {}),
  }));
}

/** Running and ended cases the viewer sees, for the dashboard. */
export function caseCounters(ctx: TenantCtx, tenantId: string, v: import("../../runtime/bpmn").Visibility) {
  const p = engineHandlesOf(ctx);
  return {
    running: p.caseRuntime.listCases(tenantId, v, { page: 0, size: 1 }).totalElements,
    finished: p.caseRuntime.historyCases(tenantId, v, { page: 0, size: 1 }).totalElements,
  };
}
