import type { TenantCtx } from "../context";
import { BadRequestError } from "../errors";
import { kindOfInstance } from "./kind-of";
import { visibilityOf } from "./visibility";

export type InstanceIntegrationCtx = TenantCtx<"processRuntime" | "caseRuntime" | "platformDb">;

const bpmnOnly = (ctx: InstanceIntegrationCtx, id: string, what: string) => {
  if (kindOfInstance(ctx, id) === "CMMN")
    throw new BadRequestError(`${what} applies to process instances; for a case use its plan items`);
};

/** POST /a/instances/{id}/trigger: moves a token waiting at a receive task or catch event on (404 unless visible). */
export async function triggerInstance({
  ctx,
  input,
}: {
  ctx: InstanceIntegrationCtx;
  input: { id: string; activityId: string; variables?: Record<string, unknown> };
}) {
  bpmnOnly(ctx, input.id, "A trigger");
  ctx.processRuntime.getInstance(ctx.tenant.id, input.id, visibilityOf(ctx));
  return ctx.processRuntime.triggerInstance(ctx.tenant.id, input.id, input.activityId, input.variables);
}

/** GET /a/instances/{id}/activity-tree: the active executions per scope of a visible process instance. */
export function instanceActivityTree({ ctx, input }: { ctx: InstanceIntegrationCtx; input: { id: string } }) {
  bpmnOnly(ctx, input.id, "The activity tree");
  return { instanceId: input.id, root: ctx.processRuntime.activityTree(ctx.tenant.id, input.id, visibilityOf(ctx)) };
}

/** PUT /a/instances/{id}/variables (Manager): merges variables into a process or a case; answers them all. */
export async function putInstanceVariables({
  ctx,
  input,
}: {
  ctx: InstanceIntegrationCtx;
  input: { id: string; variables: Record<string, unknown> };
}) {
  const t = ctx.tenant.id;
  const variables =
    kindOfInstance(ctx, input.id) === "CMMN"
      ? await ctx.caseRuntime.setVariables(t, input.id, input.variables)
      : await ctx.processRuntime.setInstanceVariables(t, input.id, input.variables);
  return { instanceId: input.id, variables };
}
