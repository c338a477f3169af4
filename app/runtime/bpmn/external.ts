import type { ExternalFailure } from "../kernel/external-jobs";
import type { RuntimeContext } from "./context";

/** Robot steps of processes: a runner holding the job completes it or throws a BPMN error at it (one engine command). */
export function createExternalSteps(ctx: RuntimeContext) {
  const held = (tenantId: string, owner: string, jobId: string) => ctx.kernel.external.heldBy(tenantId, owner, jobId);
  return {
    /**
     * The holder reports a failure (kernel/external-jobs.ts). When it is the last try of the robot step of an activity
     * an agent called as a tool, the step is cancelled and the model told instead (engine/bpmn/agent-loop.ts), as the
     * job executor does for a tool activity's last failed try: nothing is dead-lettered, and it is one engine command,
     * one transaction (no dead letter committed with a loop still waiting for its result until its wall time). The
     * runner is answered as for any last failure: no retries left.
     */
    async failExternal(tenantId: string, owner: string, jobId: string, f: ExternalFailure) {
      const row = held(tenantId, owner, jobId);
      const toolCall = (JSON.parse(row.data) as { toolCall?: string }).toolCall;
      const { instance_id: instanceId, execution_id: executionId } = row;
      if (ctx.kernel.external.retriesAfter(row, f) > 0 || !toolCall || !instanceId || !executionId)
        return ctx.kernel.external.fail(tenantId, owner, jobId, f);
      await ctx.kernel.writable();
      const told = await ctx.command(
        tenantId,
        async (s) => {
          held(tenantId, owner, jobId);
          return ctx.engine.failAgentTool(s, instanceId, executionId, f.message);
        },
        // Checked again as written: a lock lost meanwhile (expired, taken by another runner) refuses the command.
        () => void held(tenantId, owner, jobId),
      );
      // No longer a tool call (its loop ended meanwhile): an ordinary last failure.
      if (!told) return ctx.kernel.external.fail(tenantId, owner, jobId, f);
      return { retries: 0, state: "DEADLETTER" as const };
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
