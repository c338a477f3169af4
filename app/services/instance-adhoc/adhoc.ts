import type { TenantCtx } from "../context";
import { visibilityOf } from "../instances/visibility";

export type AdhocCtx = TenantCtx<"processRuntime" | "platformDb">;

/** Anyone who may see the instance may work its ad-hoc subprocesses; others get 404. */
function visibleInstance(ctx: AdhocCtx, id: string) {
  ctx.processRuntime.getInstance(ctx.tenant.id, id, visibilityOf(ctx));
}

/** GET /a/instances/{id}/adhoc-activities */
export function enabledAdhocActivities({ ctx, input }: { ctx: AdhocCtx; input: { id: string } }) {
  visibleInstance(ctx, input.id);
  return ctx.processRuntime.enabledAdhocActivities(ctx.tenant.id, input.id);
}

/** POST /a/instances/{id}/adhoc-activities/{activityId}/execute */
export function executeAdhocActivity({
  ctx,
  input,
}: {
  ctx: AdhocCtx;
  input: { id: string; activityId: string; variables?: Record<string, unknown> };
}) {
  visibleInstance(ctx, input.id);
  return ctx.processRuntime.executeAdhocActivity(ctx.tenant.id, input.id, input.activityId, input.variables);
}

/** POST /a/instances/{id}/adhoc-subprocesses/{subProcessId}/complete */
export function completeAdhocSubProcess({
  ctx,
  input,
}: {
  ctx: AdhocCtx;
  input: { id: string; subProcessId: string };
}) {
  visibleInstance(ctx, input.id);
  return ctx.processRuntime.completeAdhocSubProcess(ctx.tenant.id, input.id, input.subProcessId);
}
