import { caseEngine, type TimerRecord } from "../../../engine/cmmn";
import type { Row } from "../bpmn/rows";
import type { CaseContext } from "./context";

class TimerGone extends Error {}

/** Fires due timer event listeners; the timer row is deleted in the firing transaction, so each fires once, also after a restart. */
export function createCaseTimers(ctx: CaseContext) {
  const { db } = ctx;
  let handle: ReturnType<typeof setInterval> | null = null;
  let running: Promise<number> | null = null;

  const fire = async (r: Row): Promise<boolean> => {
    const t: TimerRecord = {
      id: r.id,
      tenantId: r.tenant_id,
      caseInstanceId: r.case_instance_id,
      planItemInstanceId: r.plan_item_instance_id,
      elementId: r.element_id,
      dueAt: r.due_at,
      repeat: r.repeat ? JSON.parse(r.repeat) : null,
      createdAt: r.created_at,
    };
    try {
      await ctx.command(
        t.tenantId,
        (s) => caseEngine.fireTimer(s, t),
        () => {
          if (db.query("DELETE FROM case_timers WHERE id = ? AND tenant_id = ?").run(t.id, t.tenantId).changes === 0)
            throw new TimerGone();
        },
      );
      return true;
    } catch (e) {
      if (e instanceof TimerGone) return false;
      throw e;
    }
  };

  const api = {
    /** Fires every timer due by the clock, oldest first; returns how many fired. */
    async runDueTimers(opts: { limit?: number } = {}): Promise<number> {
      const rows = db
        .query("SELECT * FROM case_timers WHERE due_at <= ? ORDER BY due_at LIMIT ?")
        .all(ctx.clock(), opts.limit ?? 1000) as Row[];
      let n = 0;
      for (const r of rows) if (await fire(r)) n++;
      return n;
    },

    startTimerLoop(opts: { intervalMs?: number; onError?: (e: unknown) => void } = {}) {
      if (handle) return;
      handle = setInterval(() => {
        if (running) return;
        running = api
          .runDueTimers()
          .catch((e) => {
            opts.onError?.(e);
            return 0;
          })
          .finally(() => {
            running = null;
          });
      }, opts.intervalMs ?? 1000);
    },

    async stop() {
      if (handle) clearInterval(handle);
      handle = null;
      if (running) await running;
    },

    /** Pending timers of a case (diagnostics and tests). */
    timersOf(tenantId: string, caseId: string) {
      return (
        db
          .query(
            "SELECT element_id, due_at FROM case_timers WHERE tenant_id = ? AND case_instance_id = ? ORDER BY due_at",
          )
          .all(tenantId, caseId) as Row[]
      ).map((r) => ({ elementId: r.element_id as string, dueAt: new Date(r.due_at).toISOString() }));
    },
  };
  return api;
}
