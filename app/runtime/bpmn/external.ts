import type { RuntimeContext } from "./context";

/** Robot steps of processes: a runner holding the job completes it or throws a BPMN error at it (one engine command). */
export function createExternalSteps(ctx: RuntimeContext) {
  const held = (tenantId: string, owner: string, jobId: string) => ctx.kernel.external.heldBy(tenantId, owner, jobId);
  return {
    /**
     * The holder reports a failure (kernel/external-jobs.ts); when it dead-letters the robot step of an activity an
     * agent called as a tool, the step is cancelled and the model told instead (engine/bpmn/agent-loop.ts).
     */
    async failExternal(
      tenantId: string,
      owner: string,
      jobId: string,
      f: Parameters<RuntimeContext["kernel"]["external"]["fail"]>[3],
    ) {
      const row = held(tenantId, owner, jobId);
      const out = await ctx.kernel.external.fail(tenantId, owner, jobId, f);
      const toolCall = (JSON.parse(row.data) as { toolCall?: string }).toolCall;
      if (out.state === "DEADLETTER" && toolCall && row.instance_id && row.execution_id) {
        const { instance_id: instanceId, execution_id: executionId } = row;
        await ctx.command(tenantId, (s) => ctx.engine.failAgentTool(s, instanceId, executionId, f.message));
      }
      return out;
    },
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
