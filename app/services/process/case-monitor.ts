import type { Platform } from "../../platform/platform";

/** GET /a/definitions/{key}/monitor for a case definition, in the same shape as for processes. */
export function caseMonitor(p: Platform, tenantId: string, key: string, version?: number) {
  return p.caseRuntime.monitor(tenantId, key, version);
}

/** GET /a/definitions/{key}/monitor/{activityId} for a case definition. */
export function caseMonitorItems(p: Platform, tenantId: string, key: string, activityId: string, version?: number) {
  return p.caseRuntime.monitorItems(tenantId, key, activityId, version);
}

/** Running and ended cases the viewer sees, for the dashboard. */
export function caseCounters(p: Platform, tenantId: string, v: import("../../runtime/bpmn").Visibility) {
  return {
    running: p.caseRuntime.listCases(tenantId, v, { page: 0, size: 1 }).totalElements,
    finished: p.caseRuntime.historyCases(tenantId, v, { page: 0, size: 1 }).totalElements,
  };
}
