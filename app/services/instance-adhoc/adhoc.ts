import type { RequestCtx } from "../context";
import { visibilityOf } from "../instances/visibility";

/** Anyone who may see the instance may work its ad-hoc subprocesses; others get 404. */
function visibleInstance(ctx: RequestCtx, id: string) {
  ctx.processRuntime.getInstance(ctx.tenant.id, id, visibilityOf(ctx));
}

/** GET /a/instances/{id}/adhoc-activities */
export function enabledAdhocActivities(ctx: RequestCtx, id: string) {
  visibleInstance(ctx, id);
  return ctx.processRuntime.enabledAdhocActivities(ctx.tenant.id, id);
}

/** POST /a/instances/{id}/adhoc-activities/{activityId}/execute */
export function executeAdhocActivity(
  ctx: RequestCtx,
  id: string,
  activityId: string,
  variables?: Record<string, unknown>,
) {
  visibleInstance(ctx, id);
  return ctx.processRuntime.executeAdhocActivity(ctx.tenant.id, id, activityId, variables);
}

/** POST /a/instances/{id}/adhoc-subprocesses/{subProcessId}/complete */
export function completeAdhocSubProcess(ctx: RequestCtx, id: string, subProcessId: string) {
  visibleInstance(ctx, id);
  return ctx.processRuntime.completeAdhocSubProcess(ctx.tenant.id, id, subProcessId);
}
