import { caseEngine } from "../../../engine/cmmn";
import { CASE_AGENT, CASE_TIMER } from "../kernel/job-executor";
import type { CaseContext } from "./context";
import { toTimer } from "./rows";
import type { createCaseWorkerJobs } from "./worker-jobs";

class TimerGone extends Error {}

/**
 * Timer event listeners on the kernel's job executor: the job row is deleted in the firing transaction, so each due
 * timer fires once, also after a restart; a failing one is retried and dead-lettered like any process job.
 */
export function createCaseTimers(ctx: CaseContext, workers: ReturnType<typeof createCaseWorkerJobs>) {
  const { db, kernel } = ctx;
  const q = {
    del: db.query("DELETE FROM jobs WHERE id = ? AND tenant_id = ?"),
    // Through the case's jobs (jobs_instance_idx), not the tenant's every case timer.
    ofCase: db.query<{ element_id: string; due_at: number }, [string, string]>(
      `SELECT activity_id AS element_id, due_at FROM jobs WHERE instance_id = ? AND +tenant_id = ? AND +kind = '${CASE_TIMER}' ORDER BY due_at`,
    ),
  };
  // The case runtime's jobs: timers, and the agent runs of tasks (worker-jobs.ts).
  kernel.jobs.register("CMMN", async (job) => {
    if (job.kind === CASE_AGENT) return workers.runAgentJob(job);
    const t = toTimer(job);
    try {
      await ctx.command(
        t.tenantId,
        (s) => caseEngine.fireTimer(s, t),
        () => {
          if (q.del.run(t.id, t.tenantId).changes === 0) throw new TimerGone();
        },
      );
      return true;
    } catch (e) {
      if (e instanceof TimerGone) return false;
      throw e;
    }
  });

  return {
    /** Fires every case timer (and runs every agent job) due by the clock, oldest first; returns how many ran. */
    runDueTimers: (opts: { limit?: number } = {}) => kernel.jobs.runDue("CMMN", opts.limit),
    /** Starts the kernel's one executor (a no-op when the process runtime already started it). */
    startTimerLoop: (opts: { intervalMs?: number; onError?: (e: unknown) => void } = {}) => kernel.jobs.start(opts),
    stop: () => kernel.jobs.stop(),
    /** Pending timers of a case (diagnostics and tests). */
    timersOf: (tenantId: string, caseId: string) =>
      q.ofCase.all(caseId, tenantId).map((r) => ({ elementId: r.element_id, dueAt: new Date(r.due_at).toISOString() })),
  };
}
