import type { RuntimeContext } from "./context";
import { jobAuditRecord } from "../kernel/job-audit";
import { toJob, type JobRow } from "../kernel/rows";

export { DEFAULT_RETRY_WAIT_MS } from "../kernel/job-executor";

/** Process jobs on the kernel's executor: each runs as an engine command; failures follow the kernel's retry rule. */
export function createJobs(ctx: RuntimeContext) {
  const { db, kernel } = ctx;
  const fresh = db.query<JobRow, [string, string]>("SELECT * FROM jobs WHERE id = ? AND tenant_id = ?");
  kernel.jobs.register("BPMN", async (job, audit) => {
    try {
      return await runJob(job, audit);
    } catch (e) {
      // An activity an agent called as a tool failed its last try: the model is told, the loop goes on (agent-loop.ts).
      const data = JSON.parse(job.data) as { toolCall?: string };
      if (!data.toolCall || job.retries > 1 || !job.instance_id || !job.execution_id || audit) throw e;
      const message = e instanceof Error ? e.message : String(e);
      const { instance_id: instanceId, execution_id: executionId } = job;
      const told = await ctx.command(job.tenant_id, (s) =>
        ctx.engine.failAgentTool(s, instanceId, executionId, message),
      );
      if (!told) throw e;
      return true;
    }
  });
  const runJob = (job: JobRow, audit: Parameters<Parameters<typeof kernel.jobs.register>[1]>[1]) =>
    ctx.command(job.tenant_id, async (s) => {
      // Re-read inside every attempt: a job another executor already ran is gone, and must not run twice.
      const now = fresh.get(job.id, job.tenant_id);
      if (now?.state !== "EXECUTABLE") return false;
      await ctx.engine.executeJob(s, toJob(now));
      if (!audit) return true;
      // An operator's run is recorded in the same command: on the job's instance, or on the one a timer start began.
      const started = [...s.changes.instances.values()].find((c) => c.op === "insert")?.row.id;
      const instanceId = now.instance_id ?? started;
      if (instanceId) s.putActivity(jobAuditRecord(now, instanceId, audit, "executed", s.now, ctx.newId()), "insert");
      return { audited: true } as const;
    });
  return {
    /** Runs every process job due now (each once per call), oldest first; returns how many ran successfully. */
    runDueJobs: (opts: { limit?: number } = {}) => kernel.jobs.runDue("BPMN", opts.limit),
    /** Starts the kernel's executor (process jobs and case timers), polling every `intervalMs`. */
    startJobExecutor: (opts: { intervalMs?: number } = {}) => kernel.jobs.start(opts),
    stop: () => kernel.jobs.stop(),
    /** Whether the executor polls (readiness) and its figures (metrics). */
    jobExecutorActive: () => kernel.jobs.active(),
    jobFigures: () => kernel.jobs.figures(),
    ...kernel.jobAdmin,
  };
}
