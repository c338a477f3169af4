import { readSnapshot } from "../../../db/read-snapshot";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import type { CorrelateOptions, InstanceRecord } from "../../../engine/bpmn";
import { createInstanceQueries } from "../kernel/instance-queries";
import { summaryRowOf, type StartInput } from "../kernel/instance-summary";
import { iso, toActivity, type ActivityRow, type InstanceRow, type VariableRow } from "../kernel/rows";
import type { RuntimeContext } from "./context";
import { instanceWhere, type InstanceFilter } from "./instance-filter";
import { instanceView, taskView, type InstanceViewRow, type Visibility } from "./views";

/** An engine instance record in the row shape instanceView reads. */
const instanceRow = (i: InstanceRecord): InstanceViewRow => ({
  ...summaryRowOf(i),
  parent_instance_id: i.parentInstanceId,
});

export type { StartInput } from "../kernel/instance-summary";

/** Instance operations: start, queries filtered by visibility, cancel, suspend/activate, variables, history. */
export function createInstances(ctx: RuntimeContext) {
  const { db } = ctx;
  const queries = createInstanceQueries<InstanceRow, ReturnType<typeof instanceView>>(
    db,
    "process_instances",
    instanceView,
  );
  const { find, openTasks, list } = queries;
  const q = {
    rootVariables: db.query<Pick<VariableRow, "name" | "value">, [string, string, string]>(
      "SELECT name, value FROM variables WHERE instance_id = ? AND execution_id = ? AND +tenant_id = ?",
    ),
    activeActivities: db.query<{ a: string }, [string, string]>(
      // One entry per active execution (two parallel tokens at one activity are two entries); the token holding a
      // multi-instance body is not one: its inner instances are. The body is looked up within the instance (by the
      // primary key), not among every execution of every tenant.
      "SELECT e.activity_id AS a FROM executions e WHERE e.instance_id = ? AND +e.tenant_id = ? AND e.kind = 'token' AND e.activity_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM executions b WHERE b.instance_id = e.instance_id AND b.parent_id = e.id AND b.kind = 'mi') ORDER BY e.activity_id",
    ),
    setState: db.query(
      "UPDATE process_instances SET state = ?, revision = revision + 1 WHERE id = ? AND tenant_id = ?",
    ),
    activities: db.query<ActivityRow, [string, string]>(
      "SELECT * FROM activity_log WHERE instance_id = ? AND +tenant_id = ? ORDER BY start_time, id",
    ),
  };
  const rootVariables = (tenantId: string, id: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const v of q.rootVariables.all(id, id, tenantId)) out[v.name] = JSON.parse(v.value);
    return out;
  };
  const activeActivities = (tenantId: string, id: string): string[] =>
    q.activeActivities.all(id, tenantId).map((r) => r.a);

  const api = {
    /**
     * Starts the published (else latest) version; refuses suspended definitions; everything rolls back if a step fails.
     * `parentCaseId`: the case whose process task starts it, recorded as its parent (no parent execution: the case, not
     * a call activity, waits for it).
     */
    async startInstance(tenantId: string, input: StartInput & { parentCaseId?: string | null }) {
      const def = ctx.store.startableDefinition(tenantId, input.definitionKey);
      if (!def) throw new NotFoundError(`Definition '${input.definitionKey}' not found`);
      if (ctx.kernel.definitions.isSuspended(tenantId, input.definitionKey))
        throw new ConflictError(`Definition '${input.definitionKey}' is suspended: no new instance can start`);
      // The answer comes from the command's own changes: no re-read, and tasks of called processes are included.
      const { inst, tasks } = await ctx.command(tenantId, async (s) => {
        // The start is synchronous: an agent step it reaches runs now, and its failure refuses the start.
        s.inlineAgents = true;
        const inst = await ctx.engine.start(s, def, {
          businessKey: input.businessKey ?? null,
          variables: input.variables ?? {},
          startedBy: input.startedBy ?? null,
          channel: input.channel ?? null,
          parentInstanceId: input.parentCaseId ?? null,
        });
        const tasks = [...s.changes.tasks.values()]
          .filter((c) => c.row.state === "OPEN")
          .map((c) => c.row)
          .sort((a, b) => a.created - b.created);
        return { inst, tasks };
      });
      return { ...instanceView(instanceRow(inst)), activeTasks: tasks.map(taskView) };
    },

    list(
      tenantId: string,
      v: Visibility,
      p: { page?: number; size?: number; state?: "running" | "ended" | "all"; definitionKey?: string } = {},
    ) {
      const parts = [
        p.state === "ended"
          ? "i.state IN ('COMPLETED','CANCELLED')"
          : p.state === "all"
            ? "1=1"
            : "i.state IN ('ACTIVE','SUSPENDED')",
      ];
      const params: string[] = [];
      if (p.definitionKey) {
        parts.push("i.definition_key = ?");
        params.push(p.definitionKey);
      }
      const counted = p.definitionKey || p.state === "all" ? undefined : p.state === "ended" ? "ended" : "running";
      return list(tenantId, v, parts.join(" AND "), params, p, "i.start_time DESC", counted);
    },

    /** The cockpit's search: one page of the instances matching every filter given, with the total. */
    search(tenantId: string, v: Visibility, f: InstanceFilter, p: { page?: number; size?: number } = {}) {
      const { where, params, order, driver } = instanceWhere(tenantId, f);
      return list(tenantId, v, where, params, p, order, undefined, driver);
    },

    /** Instances holding a variable with that value (compared as text) that the viewer may see. */
    searchByVariable(
      tenantId: string,
      v: Visibility,
      name: string,
      value: string,
      p: { page?: number; size?: number } = {},
    ) {
      // The instances come from the variable's index entries (variables_search_idx); probed per instance, the
      // instances were scanned first: the whole table, there being no index of every instance by tenant.
      return list(
        tenantId,
        v,
        "i.id IN (SELECT x.instance_id FROM variables x WHERE x.tenant_id = ? AND x.name = ? AND x.text_value = ?)",
        [tenantId, name, value],
        p,
      );
    },

    /** Detail with variables, open tasks and the activities where tokens rest; 404 when the viewer takes no part. */
    get(tenantId: string, id: string, v?: Visibility) {
      return readSnapshot(ctx.db, () => {
        const r = find(tenantId, id, v);
        return {
          ...instanceView(r),
          variables: rootVariables(tenantId, id),
          activeTasks: openTasks(tenantId, id),
          activeActivityIds: activeActivities(tenantId, id),
        };
      });
    },

    getVariables(tenantId: string, id: string, v?: Visibility): Record<string, unknown> {
      return readSnapshot(ctx.db, () => {
        find(tenantId, id, v);
        return rootVariables(tenantId, id);
      });
    },

    async setVariables(tenantId: string, id: string, variables: Record<string, unknown>) {
      find(tenantId, id);
      await ctx.command(tenantId, (s) => ctx.engine.setInstanceVariables(s, id, variables));
      return rootVariables(tenantId, id);
    },

    async cancel(tenantId: string, id: string, reason = "cancelled") {
      const r = find(tenantId, id);
      if (r.state === "COMPLETED" || r.state === "CANCELLED")
        throw new ConflictError(`Instance ${id} has already ended`);
      await ctx.command(tenantId, (s) => ctx.engine.cancel(s, id, reason));
      return instanceView(find(tenantId, id));
    },

    /**
     * Suspends or activates: a suspended instance refuses task completion and its jobs wait. Waits first while the
     * checkpointer holds the engine's writes, then checks the instance's state as it is after the wait.
     */
    async setSuspended(tenantId: string, id: string, suspended: boolean) {
      await ctx.kernel.writable();
      const r = find(tenantId, id);
      const from = suspended ? "ACTIVE" : "SUSPENDED";
      if (r.state !== from)
        throw new ConflictError(`Instance ${id} is ${r.state.toLowerCase()}, not ${from.toLowerCase()}`);
      ctx.tx(() => q.setState.run(suspended ? "SUSPENDED" : "ACTIVE", id, tenantId));
      return instanceView(find(tenantId, id));
    },

    /** Correlates a message (see the engine's correlateMessage): the instances it reached or started. */
    async correlateMessage(tenantId: string, messageName: string, opts: CorrelateOptions = {}) {
      return ctx.command(tenantId, (s) => ctx.engine.correlateMessage(s, messageName, opts));
    },

    async signal(tenantId: string, signalName: string, variables?: Record<string, unknown>) {
      return { triggered: await ctx.command(tenantId, (s) => ctx.engine.signal(s, signalName, variables)) };
    },

    /** Moves a token waiting at a receive task or catch event, as its trigger would. */
    async trigger(tenantId: string, id: string, activityId: string, variables?: Record<string, unknown>) {
      find(tenantId, id);
      await ctx.command(tenantId, (s) => ctx.engine.trigger(s, id, activityId, variables));
      return api.get(tenantId, id);
    },

    historyList(tenantId: string, v: Visibility, p: { page?: number; size?: number } = {}) {
      return list(tenantId, v, "i.state IN ('COMPLETED','CANCELLED')", [], p, "i.end_time DESC", "ended");
    },

    historyGet(tenantId: string, id: string, v?: Visibility) {
      return readSnapshot(ctx.db, () => {
        const r = find(tenantId, id, v);
        const tasks = queries.tasks(tenantId, id);
        const durationMs = r.end_time ? r.end_time - r.start_time : null;
        return { ...instanceView(r), durationMs, variables: rootVariables(tenantId, id), tasks };
      });
    },

    /** Activity log: one row per visit with start, end, duration, who and channel. */
    activities(tenantId: string, id: string, v?: Visibility) {
      const rows = readSnapshot(ctx.db, () => {
        find(tenantId, id, v);
        return q.activities.all(id, tenantId);
      });
      return rows.map(toActivity).map((a) => ({
        id: a.id,
        activityId: a.activityId,
        activityName: a.activityName,
        activityType: a.activityType,
        startTime: iso(a.startTime)!,
        endTime: iso(a.endTime),
        durationMs: a.endTime === null ? null : a.endTime - a.startTime,
        who: a.who,
        channel: a.channel,
        taskId: a.taskId,
        outcome: a.outcome,
      }));
    },
  };
  return api;
}
