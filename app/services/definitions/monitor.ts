import { REASONS } from "../../runtime/bpmn/monitor";
import { kindOfDefinition } from "../instances/kind-of";
import type { TenantCtx } from "../context";
import { withPeople } from "../people/people";
import { caseMonitor, caseMonitorItems, type CaseMonitorCtx } from "./case-monitor";

export type MonitorCtx = TenantCtx<"processRuntime" | "caseRuntime" | "platformDb"> & CaseMonitorCtx;

/** Every activity row carries all of the spec's reasons, 0 where nothing is parked for one, so clients can read any key. */
function withAllReasons<T extends { activities: { byReason: Record<string, number> }[] }>(monitor: T): T {
  for (const a of monitor.activities) {
    const full: Record<string, number> = {};
    for (const r of REASONS) full[r] = a.byReason[r] ?? 0;
    a.byReason = full;
  }
  return monitor;
}

/** GET /a/definitions/{key}/monitor (Manager): work parked per step, for a process or a case definition. */
export function definitionMonitor({ ctx, input }: { ctx: MonitorCtx; input: { key: string; version?: number } }) {
  const monitor =
    kindOfDefinition(ctx, input.key) === "CMMN"
      ? caseMonitor({ ctx, input })
      : ctx.processRuntime.monitor(ctx.tenant.id, input.key, input.version);
  return withAllReasons(monitor);
}

/**
 * GET /a/definitions/{key}/monitor/{activityId} (Manager): the instances parked at one step; a waiting task's assignee
 * also by name (`assigneeUser`), so the cockpit shows a person, not an id.
 */
export function definitionMonitorItems({
  ctx,
  input,
}: {
  ctx: MonitorCtx;
  input: { key: string; activityId: string; version?: number };
}) {
  const items =
    kindOfDefinition(ctx, input.key) === "CMMN"
      ? caseMonitorItems({ ctx, input })
      : ctx.processRuntime.monitorItems(ctx.tenant.id, input.key, input.activityId, input.version);
  type Item = (typeof items)[number] & { assignee?: string | null } & Record<string, unknown>;
  return withPeople(ctx.platformDb, ctx.tenant.id, items as Item[], ["assignee"]);
}
