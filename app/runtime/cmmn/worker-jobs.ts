import { caseEngine } from "../../../engine/cmmn";
import { UnprocessableError } from "../../../engine/errors";
import type { JobRow } from "../kernel/rows";
import type { CaseContext } from "./context";

class JobGone extends Error {}

/**
 * Work of case tasks done outside a request: agent runs (kind `case-agent`, claimed by the kernel's executor with the
 * case timers) and robots' external jobs (fetched by runners through kernel/external-jobs.ts, completed here).
 */
export function createCaseWorkerJobs(ctx: CaseContext) {
  const del = ctx.db.query("DELETE FROM jobs WHERE id = ? AND tenant_id = ?");
  const held = (tenantId: string, owner: string, jobId: string) => ctx.kernel.external.heldBy(tenantId, owner, jobId);
  return {
    /**
     * Runs an agent step's job: the model is awaited while the command computes, then the step's outcome (completed,
     * or FAILED with its failure recorded) and the job's removal commit together. False when the job ran elsewhere.
     */
    async runAgentJob(job: JobRow): Promise<boolean> {
      // A revision conflict (the case moved while the model answered) recomputes the command: the agent runs once per
      // job run (the command runner's memo, engine/once.ts), so its tool calls and its failure record are not repeated.
      try {
        await ctx.command(
          job.tenant_id,
          (s) => caseEngine.runAgentJob(s, job.instance_id!, job.execution_id!),
          () => {
            if (del.run(job.id, job.tenant_id).changes === 0) throw new JobGone();
          },
        );
        return true;
      } catch (e) {
        if (e instanceof JobGone) return false;
        throw e;
      }
    },

    /** The runner holding a robot's job of a case completes it: variables into the case, the task completes. */
    async completeExternal(tenantId: string, owner: string, jobId: string, variables: Record<string, unknown>) {
      await ctx.command(tenantId, async (s) => {
        // Checked inside every attempt: a lock lost meanwhile (expired and taken by another runner) refuses.
        const job = held(tenantId, owner, jobId);
        return caseEngine.completeExternal(s, job.instance_id!, jobId, variables);
      });
    },

    /** CMMN has no error events to catch a BPMN error: refused, the job stays locked (report a failure instead). */
    externalBpmnError(tenantId: string, owner: string, jobId: string): never {
      held(tenantId, owner, jobId);
      throw new UnprocessableError(
        `External task ${jobId} belongs to a case: a CMMN task cannot catch a BPMN error; report a failure instead`,
      );
    },
  };
}
