import { caseEngine } from "../../../engine/cmmn";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import { iso, toTask, type Row } from "../bpmn/rows";
import { instanceVisibilitySql, page, paging, taskView, type Visibility } from "../bpmn/views";
import type { CaseContext } from "./context";
import { caseView, caseViewOf } from "./views";

export interface StartCaseInput {
  definitionKey: string;
  businessKey?: string | null;
  variables?: Record<string, unknown>;
  startedBy?: string | null;
  channel?: string | null;
}

/** Case instances: start, visibility-filtered queries, history, cancel, variables. */
export function createCaseInstances(ctx: CaseContext) {
  const { db } = ctx;
  const find = (tenantId: string, id: string, v?: Visibility): Row => {
    const vis = v ? instanceVisibilitySql(v) : { sql: "1=1", params: [] };
    const r = db
      .query(`SELECT i.* FROM case_instances i WHERE i.id = ? AND i.tenant_id = ? AND ${vis.sql}`)
      .get(id, tenantId, ...vis.params) as Row | null;
    if (!r) throw new NotFoundError(`Instance ${id} not found`);
    return r;
  };
  const openTasks = (tenantId: string, id: string) =>
    (
      db
        .query("SELECT * FROM tasks WHERE instance_id = ? AND tenant_id = ? AND state = 'OPEN' ORDER BY created")
        .all(id, tenantId) as Row[]
    ).map((r) => taskView(toTask(r)));
  const list = (
    tenantId: string,
    v: Visibility,
    where: string,
    params: unknown[],
    p: { page?: number; size?: number },
    order = "i.start_time DESC",
  ) => {
    const { page: n, size } = paging(p, 20, 100);
    const vis = instanceVisibilitySql(v);
    const base = `FROM case_instances i WHERE i.tenant_id = ? AND ${where} AND ${vis.sql}`;
    const total = (
      db.query(`SELECT COUNT(*) AS c ${base}`).get(tenantId, ...(params as string[]), ...vis.params) as Row
    ).c as number;
    const rows = db
      .query(`SELECT i.* ${base} ORDER BY ${order}, i.id LIMIT ? OFFSET ?`)
      .all(tenantId, ...(params as string[]), ...vis.params, size, n * size) as Row[];
    return page(rows.map(caseView), n, size, total);
  };

  const api = {
    find,
    /** Starts the published (else latest) version; everything the start does is written at once or not at all. */
    async startCase(tenantId: string, input: StartCaseInput) {
      const def = ctx.store.startableDefinition(tenantId, input.definitionKey);
      if (!def) throw new NotFoundError(`Definition '${input.definitionKey}' not found`);
      // The answer comes from what the command wrote (the case record, the tasks it opened), not from re-reading it.
      const { lc, tasks } = await ctx.command(tenantId, async (s) => {
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
      const params: unknown[] = [];
      if (p.definitionKey) {
        parts.push("i.definition_key = ?");
        params.push(p.definitionKey);
      }
      return list(tenantId, v, parts.join(" AND "), params, p);
    },

    get(tenantId: string, id: string, v?: Visibility) {
      const r = find(tenantId, id, v);
      const active = (
        db
          .query(
            "SELECT DISTINCT element_id AS a FROM case_plan_items WHERE case_instance_id = ? AND tenant_id = ? AND state = 'ACTIVE' AND type <> 'planModel'",
          )
          .all(id, tenantId) as Row[]
      ).map((x) => x.a as string);
      return {
        ...caseView(r),
        variables: JSON.parse(r.variables),
        activeTasks: openTasks(tenantId, id),
        activeActivityIds: active,
      };
    },

    historyList(tenantId: string, v: Visibility, p: { page?: number; size?: number } = {}) {
      return list(tenantId, v, "i.state <> 'ACTIVE'", [], p, "i.end_time DESC");
    },

    historyGet(tenantId: string, id: string, v?: Visibility) {
      const r = find(tenantId, id, v);
      const tasks = (
        db
          .query("SELECT * FROM tasks WHERE instance_id = ? AND tenant_id = ? ORDER BY created")
          .all(id, tenantId) as Row[]
      ).map((t) => taskView(toTask(t)));
      return {
        ...caseView(r),
        durationMs: r.end_time ? r.end_time - r.start_time : null,
        variables: JSON.parse(r.variables),
        tasks,
      };
    },

    /** Activity log of a case: one row per plan item instance (stages, tasks, milestones, listeners) with start, end, who and channel. */
    activities(tenantId: string, id: string, v?: Visibility) {
      find(tenantId, id, v);
      const rows = db
        .query(
          "SELECT * FROM case_plan_items WHERE case_instance_id = ? AND tenant_id = ? AND type <> 'planModel' ORDER BY seq",
        )
        .all(id, tenantId) as Row[];
      return rows.map((p) => {
        const data = JSON.parse(p.data);
        const start = p.started_at ?? p.created_at;
        return {
          id: p.id as string,
          activityId: p.element_id as string,
          activityName: p.name as string,
          activityType: p.type as string,
          state: p.state as string,
          startTime: iso(start)!,
          endTime: iso(p.ended_at),
          durationMs: p.ended_at === null ? null : p.ended_at - start,
          who: p.ended_by as string | null,
          channel: p.channel as string | null,
          taskId: (data.taskId ?? null) as string | null,
          outcome: (data.lastEvent ?? null) as string | null,
        };
      });
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
