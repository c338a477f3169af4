import type { RuntimeContext } from "./context";

/** Robot steps of processes: a runner holding the job completes it or throws a BPMN error at it (one engine command). */
export function createExternalSteps(ctx: RuntimeContext) {
  const held = (tenantId: string, owner: string, jobId: string) => ctx.kernel.external.heldBy(tenantId, owner, jobId);
  return {
    async completeExternal(tenantId: string, owner: string, jobId: string, variables: Record<string, unknown>) {
      await ctx.command(tenantId, async (s) => {
        // Checked inside every attempt: a lock lost meanwhile (expired and taken by another runner) refuses.
        const job = held(tenantId, owner, jobId);
        return ctx.engine.completeExternal(s, job.instance_id!, jobId, variables);
      });
    },
    async externalBpmnError(
      tenantId: string,
      owner: string,
      jobId: string,
      error: { code: string; message?: string; variables?: Record<string, unknown> },
    ) {
      await ctx.command(tenantId, async (s) => {
        const job = held(tenantId, owner, jobId);
        return ctx.engine.externalBpmnError(s, job.instance_id!, jobId, error);
      });
    },
  };
}
