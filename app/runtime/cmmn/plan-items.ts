import { caseEngine, ENDED, type ManualOp } from "../../../engine/cmmn";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import { iso } from "../kernel/rows";
import type { Visibility } from "../kernel/visibility";
import type { CaseContext } from "./context";
import type { createCaseInstances } from "./instances";
import { toItem, type PlanItemRow } from "./rows";
import { planItemView } from "./views";

export interface CaseActor {
  userId: string | null;
  channel: string | null;
}

/** Plan items of a case: the live view with actions, milestones, manual transitions, task completion and process-task callbacks. */
export function createPlanItems(ctx: CaseContext, instances: ReturnType<typeof createCaseInstances>) {
  const { db } = ctx;
  const items = db.query<PlanItemRow, [string, string]>(
    "SELECT * FROM case_plan_items WHERE case_instance_id = ? AND tenant_id = ? AND type <> 'planModel' ORDER BY seq",
  );
  const itemsOf = (tenantId: string, caseId: string) => items.all(caseId, tenantId).map(toItem);
  const taskOf = db.query<{ instance_id: string; state: string }, [string, string]>(
    "SELECT instance_id, state FROM tasks WHERE id = ? AND tenant_id = ?",
  );
  const waitingFor = db.query<{ case_instance_id: string }, [string, string]>(
    "SELECT case_instance_id FROM case_plan_items WHERE process_instance_id = ? AND tenant_id = ? AND type = 'processTask' AND state = 'ACTIVE'",
  );

  const manual =
    (op: ManualOp) =>
    async (tenantId: string, caseId: string, planItemId: string, actor: CaseActor & { visibility?: Visibility }) => {
      const r = instances.find(tenantId, caseId, actor.visibility);
      if (r.state !== "ACTIVE") throw new ConflictError(`Case ${caseId} has already ended`);
      // the answer is the item as the command left it (the session holds it), not a re-read
      const pi = await ctx.command(tenantId, async (s) => {
        await caseEngine.manual(s, caseId, planItemId, op, { userId: actor.userId, channel: actor.channel });
        return s.get(caseId).items.find((i) => i.id === planItemId);
      });
      if (!pi) throw new NotFoundError(`Plan item ${planItemId} not found`);
      return planItemView(pi, false);
    };

  return {
    /** Live plan items (or all, with includeEnded) with the actions the viewer may take. */
    planItems(
      tenantId: string,
      caseId: string,
      opts: { isManager: boolean; visibility?: Visibility; includeEnded?: boolean },
    ) {
      instances.find(tenantId, caseId, opts.visibility);
      // COMPLETE_STAGE is a Manager's forced close: offered on every active stage, whatever work is left inside.
      return (
        itemsOf(tenantId, caseId)
          // A FAILED agent step is not ended (engine/cmmn/state.ts): it stays listed, waiting to be reactivated.
          .filter((p) => opts.includeEnded || !ENDED.has(p.state))
          .map((p) => planItemView(p, opts.isManager))
      );
    },

    /** Milestones reached, in the order they occurred. */
    milestones(tenantId: string, caseId: string, v?: Visibility) {
      instances.find(tenantId, caseId, v);
      return itemsOf(tenantId, caseId)
        .filter((p) => p.type === "milestone" && p.state === "COMPLETED")
        .map((p) => ({ id: p.id, elementId: p.elementId, name: p.name, reachedAt: iso(p.endedAt)! }));
    },

    startPlanItem: manual("start"),
    disablePlanItem: manual("disable"),
    enablePlanItem: manual("enable"),
    triggerPlanItem: manual("trigger"),
    completeStage: manual("completeStage"),
    reactivatePlanItem: manual("reactivate"),

    /** Completes a human task of a case: variables into the case, the plan item completes, the case moves on, in one transaction. */
    async completeHumanTask(
      tenantId: string,
      taskId: string,
      variables: Record<string, unknown> = {},
      actor: CaseActor,
    ) {
      const t = taskOf.get(taskId, tenantId);
      if (!t) throw new NotFoundError(`Task ${taskId} not found`);
      if (t.state !== "OPEN")
        throw new ConflictError(`Task ${taskId} is already ${t.state === "CANCELLED" ? "cancelled" : "completed"}`);
      // the store writes the completion only onto a still open task, so exactly one of two racing completions wins
      await ctx.command(tenantId, (s) => caseEngine.completeHumanTask(s, t.instance_id, taskId, variables, actor));
      return { id: taskId, instanceId: t.instance_id, state: "COMPLETED" as const };
    },

    /**
     * Called when a BPMN instance ends; false when no case waits for it. Only a process a case's process task started
     * can be waited for, and such a process records the case as its parent (older rows too: migration 0017), so an
     * instance without a parent is answered without a look-up: most instances end that way.
     */
    async onProcessEnded(
      tenantId: string,
      processInstanceId: string,
      parentInstanceId: string | null,
    ): Promise<boolean> {
      if (parentInstanceId === null) return false;
      const rows = waitingFor.all(processInstanceId, tenantId);
      if (!rows.length) return false;
      return ctx.command(tenantId, (s) => caseEngine.processEnded(s, rows[0].case_instance_id, processInstanceId));
    },
  };
}
