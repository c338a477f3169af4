import type { TenantCtx } from "../context";
import { kindOfDefinition, kindOfInstance } from "../instances/kind-of";

export type JobsCtx = TenantCtx<"processRuntime" | "caseRuntime">;

/** GET /a/instances/{id}/jobs (Manager): every job of a process instance or a case; another tenant's id is 404. */
export function listInstanceJobs({ ctx, input }: { ctx: JobsCtx; input: { id: string } }) {
  if (kindOfInstance(ctx, input.id) === "BPMN") ctx.processRuntime.getInstance(ctx.tenant.id, input.id);
  return ctx.processRuntime.instanceJobs(ctx.tenant.id, input.id);
}

/** GET /a/definitions/{key}/jobs (Manager): the key's timer-start jobs, which belong to no instance. */
export function listDefinitionJobs({ ctx, input }: { ctx: JobsCtx; input: { key: string } }) {
  kindOfDefinition(ctx, input.key);
  return ctx.processRuntime.definitionJobs(ctx.tenant.id, input.key);
}

/** POST /a/jobs/{id}/execute (Manager): a timer fires as if due, a failed job is tried once; recorded in history. */
export function executeJob({ ctx, input }: { ctx: JobsCtx; input: { id: string } }) {
  return ctx.processRuntime.executeJob(ctx.tenant.id, input.id, {
    who: ctx.actor.userId,
    channel: ctx.actor.channel,
  });
}
