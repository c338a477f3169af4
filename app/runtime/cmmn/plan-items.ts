import { caseEngine, type ManualOp } from "../../../engine/cmmn";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import { iso, type Row } from "../bpmn/rows";
import type { Visibility } from "../bpmn/views";
import type { CaseContext } from "./context";
import type { createCaseInstances } from "./instances";
import { toItem } from "./store";
import { planItemView } from "./views";

export interface CaseActor {
  userId: string | null;
  channel: string | null;
}
const ENDED = new Set(["COMPLETED", "TERMINATED", "FAILED"]);

/** Plan items of a case: the live view with actions, milestones, manual transitions, task completion and process-task callbacks. */
export function createPlanItems(ctx: CaseContext, instances: ReturnType<typeof createCaseInstances>) {
  const { db } = ctx;
  const itemsOf = (tenantId: string, caseId: string) =>
    (
      db
        .query(
          "SELECT * FROM case_plan_items WHERE case_instance_id = ? AND tenant_id = ? AND type <> 'planModel' ORDER BY seq",
        )
        .all(caseId, tenantId) as Row[]
    ).map(toItem);

  const taskOf = db.query("SELECT instance_id, state FROM tasks WHERE id = ? AND tenant_id = ?");
  const waitingFor = db.query(
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
      return itemsOf(tenantId, caseId)
        .filter((p) => opts.includeEnded || !ENDED.has(p.state))
        .map((p) => planItemView(p, opts.isManager));
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

    /** Completes a human task of a case: variables into the case, the plan item completes, the case moves on, in one transaction. */
    async completeHumanTask(
      tenantId: string,
      taskId: string,
      variables: Record<string, unknown> = {},
      actor: CaseActor,
    ) {
      const t = taskOf.get(taskId, tenantId) as Row | null;
      if (!t) throw new NotFoundError(`Task ${taskId} not found`);
      if (t.state !== "OPEN")
        throw new ConflictError(`Task ${taskId} is already ${t.state === "CANCELLED" ? "cancelled" : "completed"}`);
      // the store writes the completion only onto a still open task, so exactly one of two racing completions wins
      await ctx.command(tenantId, (s) => caseEngine.completeHumanTask(s, t.instance_id, taskId, variables, actor));
      return { id: taskId, instanceId: t.instance_id as string, state: "COMPLETED" as const };
    },

    /** Called when a BPMN instance started by a blocking process task ends; false when no case waits for it. */
    async onProcessEnded(tenantId: string, processInstanceId: string): Promise<boolean> {
      const rows = waitingFor.all(processInstanceId, tenantId) as Row[];
      if (!rows.length) return false;
      return ctx.command(tenantId, (s) => caseEngine.processEnded(s, rows[0].case_instance_id, processInstanceId));
    },

    /** Live plan items of running cases of a definition key, counted per element and state (the monitor's byReason for cases). */
    activeCounts(tenantId: string, definitionKey: string) {
      const rows = db
        .query(`SELECT p.element_id, p.name, p.type, p.state, COUNT(*) AS c FROM case_plan_items p JOIN case_instances i ON i.id = p.case_instance_id
        WHERE i.tenant_id = ? AND p.tenant_id = ? AND i.definition_key = ? AND i.state = 'ACTIVE' AND p.type <> 'planModel' AND p.state IN ('AVAILABLE','ENABLED','ACTIVE','DISABLED','WAITING_FOR_REPETITION')
        GROUP BY p.element_id, p.state ORDER BY p.element_id`)
        .all(tenantId, tenantId, definitionKey) as Row[];
      const out = new Map<
        string,
        {
          activityId: string;
          activityName: string;
          activityType: string;
          count: number;
          byReason: Record<string, number>;
        }
      >();
      for (const r of rows) {
        const a = out.get(r.element_id) ?? {
          activityId: r.element_id as string,
          activityName: r.name as string,
          activityType: r.type as string,
          count: 0,
          byReason: {} as Record<string, number>,
        };
        const reason: string =
          r.type === "humanTask" && r.state === "ACTIVE"
            ? "USER_TASK"
            : r.type === "timerEventListener"
              ? "TIMER"
              : r.state;
        a.byReason[reason] = (a.byReason[reason] ?? 0) + r.c;
        a.count += r.c;
        out.set(r.element_id, a);
      }
      return [...out.values()].sort((a, b) => b.count - a.count || a.activityId.localeCompare(b.activityId));
    },
  };
}
