import { isManager, type TenantCtx } from "../context";
import { visibilityOf } from "../instances/visibility";

export type PlanItemsCtx = TenantCtx<"caseRuntime" | "platformDb">;

/** GET /a/instances/{id}/plan-items: live plan items with the caller's actions; 404 for a case the caller takes no part in. */
export function listPlanItems({
  ctx,
  input,
}: {
  ctx: PlanItemsCtx;
  input: { caseId: string; includeEnded?: boolean };
}) {
  return ctx.caseRuntime.planItems(ctx.tenant.id, input.caseId, {
    isManager: ctx.actor.kind !== "user" || isManager(ctx.actor),
    visibility: visibilityOf(ctx),
    includeEnded: input.includeEnded ?? false,
  });
}

/** GET /a/instances/{id}/milestones */
export function listMilestones({ ctx, input }: { ctx: PlanItemsCtx; input: { caseId: string } }) {
  return ctx.caseRuntime.milestones(ctx.tenant.id, input.caseId, visibilityOf(ctx));
}

export type PlanItemCommand = "start" | "disable" | "enable" | "trigger" | "complete-stage" | "reactivate";

/**
 * POST .../plan-items/{planItemId}/{command}; a transition the state does not allow is a Conflict naming the state.
 * `reactivate` runs a failed AI agent step again (spec: a case's AI step can be run again); its agent runs as a job.
 */
export function runPlanItemCommand({
  ctx,
  input,
}: {
  ctx: PlanItemsCtx;
  input: { caseId: string; planItemId: string; command: PlanItemCommand };
}) {
  const rt = ctx.caseRuntime;
  const fn = {
    start: rt.startPlanItem,
    disable: rt.disablePlanItem,
    enable: rt.enablePlanItem,
    trigger: rt.triggerPlanItem,
    "complete-stage": rt.completeStage,
    reactivate: rt.reactivatePlanItem,
  }[input.command];
  const actor = { userId: ctx.actor.userId, channel: ctx.actor.channel, visibility: visibilityOf(ctx) };
  return fn(ctx.tenant.id, input.caseId, input.planItemId, actor);
}
