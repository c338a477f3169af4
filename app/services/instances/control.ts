import type { TenantCtx } from "../context";
import { BadRequestError } from "../errors";
import { kindOfInstance } from "./kind-of";

export type InstanceControlCtx = TenantCtx<"processRuntime" | "caseRuntime">;
type IdInput = { ctx: InstanceControlCtx; input: { id: string } };
type JobInput = { ctx: InstanceControlCtx; input: { jobId: string } };

/** DELETE /a/instances/{id} (Manager): cancels a process or terminates a case. */
export async function cancelInstance({ ctx, input }: IdInput) {
  if (kindOfInstance(ctx, input.id) === "CMMN") {
    await ctx.caseRuntime.cancelCase(ctx.tenant.id, input.id, {
      userId: ctx.actor.userId,
      channel: ctx.actor.channel,
    });
    return ctx.caseRuntime.getCase(ctx.tenant.id, input.id);
  }
  return ctx.processRuntime.cancelInstance(ctx.tenant.id, input.id);
}

/** PATCH /a/instances/{id}/suspend|activate (Manager): BPMN only, a case answers 400. */
export async function setInstanceSuspended({
  ctx,
  input,
}: {
  ctx: InstanceControlCtx;
  input: { id: string; suspended: boolean };
}) {
  if (kindOfInstance(ctx, input.id) === "CMMN")
    throw new BadRequestError("Cases cannot be suspended or activated: only BPMN instances can");
  const rt = ctx.processRuntime;
  return input.suspended ? rt.suspendInstance(ctx.tenant.id, input.id) : rt.activateInstance(ctx.tenant.id, input.id);
}

/** GET /a/instances/failed-jobs (Manager) */
export function listFailedJobs({ ctx }: { ctx: InstanceControlCtx; input?: undefined }) {
  return ctx.processRuntime.failedJobs(ctx.tenant.id);
}

/** POST /a/instances/failed-jobs/{jobId}/retry (Manager): back to executable with retries reset. */
export async function retryFailedJob({ ctx, input }: JobInput) {
  return ctx.processRuntime.retryJob(ctx.tenant.id, input.jobId);
}

/** POST /a/instances/failed-jobs/{jobId}/deadletter (Manager): stops retrying. */
export async function deadletterFailedJob({ ctx, input }: JobInput) {
  return ctx.processRuntime.deadletterJob(ctx.tenant.id, input.jobId);
}
