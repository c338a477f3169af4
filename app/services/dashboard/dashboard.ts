import type { TenantCtx } from "../context";
import { visibilityOf } from "../instances/visibility";

export type DashboardCtx = TenantCtx<"processRuntime" | "caseRuntime" | "platformDb">;

/** GET /a/dashboard: counters by the caller's visibility, processes and cases together (definitions tenant-wide). */
export function dashboardCounters({ ctx }: { ctx: DashboardCtx; input?: undefined }) {
  const [t, v] = [ctx.tenant.id, visibilityOf(ctx)];
  const counters = ctx.processRuntime.dashboard(t, v);
  // Only the totals of the case pages are read: one row each.
  const runningCases = ctx.caseRuntime.listCases(t, v, { page: 0, size: 1 }).totalElements;
  const finishedCases = ctx.caseRuntime.historyCases(t, v, { page: 0, size: 1 }).totalElements;
  return {
    ...counters,
    runningInstances: counters.runningInstances + runningCases,
    finishedInstances: counters.finishedInstances + finishedCases,
  };
}
