import { readSnapshot } from "../../../db/read-snapshot";
import { caseEngine } from "../../../engine/cmmn";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import { createInstanceQueries } from "../kernel/instance-queries";
import type { StartInput } from "../kernel/instance-summary";
import { JOB_EXECUTION } from "../kernel/job-audit";
import { iso, type ActivityRow } from "../kernel/rows";
import type { Visibility } from "../kernel/visibility";
import type { CaseContext } from "./context";
import type { CaseInstanceRow, PlanItemRow } from "./rows";
import { caseView, caseViewOf } from "./views";

/** Starting a case takes what starting a process instance takes. */
export type StartCaseInput = StartInput;

/** Case instances: start, visibility-filtered queries, history, cancel, variables. */
export function createCaseInstances(ctx: CaseContext) {
  const { db } = ctx;
  const queries = createInstanceQueries<CaseInstanceRow, ReturnType<typeof caseView>>(db, "case_instances", caseView);
  const { find, openTasks, list } = queries;
  const q = {
    active: db.query<{ a: string }, [string, string]>(
      "SELECT DISTINCT element_id AS a FROM case_plan_items WHERE case_instance_id = ? AND tenant_id = ? AND state = 'ACTIVE' AND type <> 'planModel'",
    ),
    items: db.query<PlanItemRow, [string, string]>(
      "SELECT * FROM case_plan_items WHERE case_instance_id = ? AND tenant_id = ? AND type <> 'planModel' ORDER BY seq",
    ),
    // An operator's run of a case timer (POST /a/jobs/{id}/execute) is recorded in the activity log (kernel/job-audit.ts).
    audits: db.query<ActivityRow, [string, string]>(
      `SELECT * FROM activity_log WHERE instance_id = ? AND +tenant_id = ? AND activity_type = '${JOB_EXECUTION}' ORDER BY start_time, id`,
    ),
  };

  const api = {
    find,
    /** Starts the published (else latest) version; everything the start does is written at once or not at all. */
    async startCase(tenantId: string, input: StartCaseInput) {
      const def = ctx.store.startableDefinition(tenantId, input.definitionKey);
      if (!def) throw new NotFoundError(`Definition '${input.definitionKey}' not found`);
      // The answer comes from what the command wrote (the case record, the tasks it opened), not from re-reading it.
      const { lc, tasks } = await ctx.command(tenantId, async (s) => {
        // The start is synchronous: an agent step it reaches runs now (a failure faults the step, the case stays open).
        s.inlineAgents = true;
        const lc = await caseEngine.start(s, def, {
          businessKey: input.businessKey ?? null,
          variables: input.variables ?? {},
          startedBy: input.startedBy ?? null,
          channel: input.channel ?? null,
        });
        const ended = new Set(s.changes.tasksEnded.map((e) => e.id));
        return { lc, tasks: s.changes.tasksCreated.filter((t) => t.instanceId === lc.instance.id && !ended.has(t.id)) };
      });
      return {
        ...caseViewOf(lc.instance),
        activeTasks: tasks.map((t) => ({ id: t.id, name: t.name, activityId: t.activityId, assignee: t.assignee })),
      };
    },

    list(
      tenantId: string,
      v: Visibility,
      p: { page?: number; size?: number; state?: "running" | "ended" | "all"; definitionKey?: string } = {},
    ) {
      const parts = [p.state === "ended" ? "i.state <> 'ACTIVE'" : p.state === "all" ? "1=1" : "i.state = 'ACTIVE'"];
      const params: string[] = [];
      if (p.definitionKey) {
        parts.push("i.definition_key = ?");
        params.push(p.definitionKey);
      }
      // The whole tenant's running or ended total is kept (instance_counts), not counted.
      const counted = p.definitionKey || p.state === "all" ? undefined : p.state === "ended" ? "ended" : "running";
      return list(tenantId, v, parts.join(" AND "), params, p, "i.start_time DESC", counted);
    },

    get(tenantId: string, id: string, v?: Visibility) {
      return readSnapshot(db, () => {
        const r = find(tenantId, id, v);
        const active = q.active.all(id, tenantId).map((x) => x.a);
        return {
          ...caseView(r),
          variables: JSON.parse(r.variables),
          activeTasks: openTasks(tenantId, id),
          activeActivityIds: active,
        };
      });
    },

    historyList(tenantId: string, v: Visibility, p: { page?: number; size?: number } = {}) {
      return list(tenantId, v, "i.state <> 'ACTIVE'", [], p, "i.end_time DESC", "ended");
    },

    historyGet(tenantId: string, id: string, v?: Visibility) {
      return readSnapshot(db, () => {
        const r = find(tenantId, id, v);
        const tasks = queries.tasks(tenantId, id);
        return {
          ...caseView(r),
          durationMs: r.end_time ? r.end_time - r.start_time : null,
          variables: JSON.parse(r.variables),
          tasks,
        };
      });
    },

    /** Activity log of a case: one row per plan item instance (stages, tasks, milestones, listeners) with start, end, who and channel. */
    activities(tenantId: string, id: string, v?: Visibility) {
      const [items, audits] = readSnapshot(db, () => {
        find(tenantId, id, v);
        return [q.items.all(id, tenantId), q.audits.all(id, tenantId)] as const;
      });
      const runs = audits.map((a) => ({
        id: a.id,
        activityId: a.activity_id,
        activityName: a.activity_name,
        activityType: a.activity_type,
        state: "COMPLETED",
        startTime: iso(a.start_time)!,
        endTime: iso(a.end_time),
        durationMs: 0,
        who: a.who,
        channel: a.channel,
        taskId: null as string | null,
        outcome: a.outcome,
      }));
      const rows = items.map((p) => {
        const data = JSON.parse(p.data);
        const start = p.started_at ?? p.created_at;
        return {
          id: p.id,
          activityId: p.element_id,
          activityName: p.name,
          activityType: p.type,
          state: p.state,
          startTime: iso(start)!,
          endTime: iso(p.ended_at),
          durationMs: p.ended_at === null ? null : p.ended_at - start,
          who: p.ended_by,
          channel: p.channel,
          taskId: (data.taskId ?? null) as string | null,
          outcome: (data.lastEvent ?? null) as string | null,
        };
      });
      return [...rows, ...runs];
    },

    async cancel(
      tenantId: string,
      id: string,
      actor: { userId: string | null; channel: string | null } = { userId: null, channel: null },
    ) {
      const r = find(tenantId, id);
      if (r.state !== "ACTIVE") throw new ConflictError(`Case ${id} has already ended`);
      await ctx.command(tenantId, (s) => caseEngine.cancel(s, id, actor));
      return caseView(find(tenantId, id));
    },

    async setVariables(tenantId: string, id: string, variables: Record<string, unknown>) {
      find(tenantId, id);
      await ctx.command(tenantId, (s) => caseEngine.setVariables(s, id, variables));
      return JSON.parse(find(tenantId, id).variables) as Record<string, unknown>;
    },
  };
  return api;
}
