import type { TenantCtx } from "../context";

export type CaseMonitorCtx = TenantCtx<"caseRuntime">;

/** GET /a/definitions/{key}/monitor for a case definition, in the same shape as for processes. */
export function caseMonitor({ ctx, input }: { ctx: CaseMonitorCtx; input: { key: string; version?: number } }) {
  return ctx.caseRuntime.monitor(ctx.tenant.id, input.key, input.version);
}

/** GET /a/definitions/{key}/monitor/{activityId} for a case definition. */
export function caseMonitorItems({
  ctx,
  input,
}: {
  ctx: CaseMonitorCtx;
  input: { key: string; activityId: string; version?: number };
}) {
  return ctx.caseRuntime.monitorItems(ctx.tenant.id, input.key, input.activityId, input.version);
}
