import { isManager, type RequestCtx } from "../context";
import { visibilityOf } from "../instances/visibility";
import type { CaseRuntime } from "../../runtime/cmmn/index";

/** The platform's case runtime. */
export function caseRuntimeOf(ctx: RequestCtx): CaseRuntime {
  return ctx.caseRuntime;
}

const actorOf = (ctx: RequestCtx) => ({
  userId: ctx.actor.userId,
  channel: ctx.actor.channel,
  visibility: visibilityOf(ctx),
});

/** GET /a/instances/{id}/plan-items: live plan items with the caller's actions; 404 for a case the caller takes no part in. */
export const listPlanItems = (ctx: RequestCtx, caseId: string, includeEnded = false) =>
  caseRuntimeOf(ctx).planItems(ctx.tenant.id, caseId, {
    isManager: ctx.actor.kind !== "user" || isManager(ctx.actor),
    visibility: visibilityOf(ctx),
    includeEnded,
  });

export const listMilestones = (ctx: RequestCtx, caseId: string) =>
  caseRuntimeOf(ctx).milestones(ctx.tenant.id, caseId, visibilityOf(ctx));

export type PlanItemCommand = "start" | "disable" | "enable" | "trigger" | "complete-stage";

/** POST .../plan-items/{planItemId}/{command}; a transition the state does not allow is a Conflict naming the state. */
export function runPlanItemCommand(ctx: RequestCtx, caseId: string, planItemId: string, command: PlanItemCommand) {
  const rt = caseRuntimeOf(ctx);
  const fn = {
    start: rt.startPlanItem,
    disable: rt.disablePlanItem,
    enable: rt.enablePlanItem,
    trigger: rt.triggerPlanItem,
    "complete-stage": rt.completeStage,
  }[command];
  return fn(ctx.tenant.id, caseId, planItemId, actorOf(ctx));
}
