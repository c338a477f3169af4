import { readSnapshot } from "../../../db/read-snapshot";
import { ConflictError, NotFoundError } from "../../../engine/errors";
import type { RuntimeContext } from "./context";
import { createTaskWrites } from "../kernel/task-writes";
import { toTask, type TaskRow } from "../kernel/rows";
import { paging, taskView, taskVisibilitySql, type TaskView, type Visibility } from "./views";

export type Channel = "REST" | "API_KEY" | "MCP" | string;

/** Task operations and queries; completion runs the engine, the rest are guarded single-row updates. */
export function createTasks(ctx: RuntimeContext) {
  const { db } = ctx;
  const q = {
    task: db.query<TaskRow, [string, string]>("SELECT * FROM tasks WHERE id = ? AND tenant_id = ?"),
    // A task's variables need only the scope tree and the stored values, not a whole instance load.
    // `+tenant_id`: the instance's key range, not a tenant-leading index (as store.ts reads them).
    scopes: db.query<{ id: string; parent_id: string | null }, [string, string]>(
      "SELECT id, parent_id FROM executions WHERE instance_id = ? AND +tenant_id = ?",
    ),
    variables: db.query<{ execution_id: string; name: string; value: string }, [string, string]>(
      "SELECT execution_id, name, value FROM variables WHERE instance_id = ? AND +tenant_id = ?",
    ),
  };
  const row = (tenantId: string, taskId: string): TaskRow => {
    const r = q.task.get(taskId, tenantId);
    if (!r) throw new NotFoundError(`Task ${taskId} not found`);
    return r;
  };
  const requireOpen = (r: TaskRow) => {
    if (r.state !== "OPEN")
      throw new ConflictError(`Task ${r.id} is already ${r.state === "CANCELLED" ? "cancelled" : "completed"}`);
  };
  /**
   * A task write first waits while the checkpointer holds the engine's writes (a write now would wait for SQLite's
   * lock in the busy handler, on the event loop), then reads and checks the task as it is after the wait. The service
   * in front has checked the task already (visibility, state), so there is no check before the wait.
   */
  const checkedWhenWritable = async (tenantId: string, taskId: string, check: (r: TaskRow) => void) => {
    await ctx.kernel.writable();
    const r = row(tenantId, taskId);
    check(r);
    return r;
  };
  const writes = createTaskWrites(db);
  const involve = (tenantId: string, instanceId: string, userId: string) =>
    writes.involve(tenantId, instanceId, "user", userId);
  // Inside the assignment's transaction: the webhook outbox row commits with it.
  const assigned = (tenantId: string, task: TaskRow) =>
    ctx.kernel.writeHooks.emit({ kind: "task-assigned", tenantId, task });

  const api = {
    /** True when the viewer may see the task (assignee, candidate user, candidate group, completer, or whole tenant). */
    isVisible(t: TaskView, v: Visibility): boolean {
      if (v.all) return true;
      return (
        (!!v.userId &&
          (t.assignee === v.userId || t.completedBy === v.userId || t.candidateUsers.includes(v.userId))) ||
        t.candidateGroups.some((g) => v.groups.includes(g))
      );
    },

    /** One task (any state); NotFound for unknown ids, other tenants' ids, and tasks the viewer may not see. */
    getTask(tenantId: string, taskId: string, visibility?: Visibility): TaskView {
      const t = taskView(toTask(row(tenantId, taskId)));
      if (visibility && !api.isVisible(t, visibility)) throw new NotFoundError(`Task ${taskId} not found`);
      return t;
    },

    /** Open tasks the viewer sees, newest first; `mine` narrows to tasks assigned to the user. */
    listTasks(
      tenantId: string,
      v: Visibility,
      opts: { page?: number; size?: number; instanceId?: string; mine?: boolean } = {},
    ): TaskView[] {
      const { page, size } = paging(opts, 100, 200);
      // Whole tenant, or assigned to the user: the page's ids come from an open-tasks index alone (it carries created and
      // the id), and only that page's rows are read, so a deep page costs index entries, not rows.
      if (!opts.instanceId && (opts.mine || v.all)) {
        const by = opts.mine ? "AND assignee = ?" : "";
        const rows = db
          .query<
            TaskRow,
            (string | number)[]
          >(`SELECT t.* FROM (SELECT id, created FROM tasks WHERE tenant_id = ? AND state = 'OPEN' ${by} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?) p
          CROSS JOIN tasks t ON t.id = p.id ORDER BY p.created DESC, p.id DESC`)
          .all(tenantId, ...(opts.mine ? [v.userId ?? "\u0000"] : []), size, page * size);
        return rows.map((r) => taskView(toTask(r)));
      }
      const vis = opts.mine ? { sql: "t.assignee = ?", params: [v.userId ?? "\u0000"] } : taskVisibilitySql(v);
      // One instance's tasks come from the instance index: `+` keeps the planner off the tenant's open-task indexes,
      // which would hand over the order but walk every open task of the tenant (49 ms at 100,000, for one row).
      const [scope, scopeParams] = opts.instanceId
        ? ["t.instance_id = ? AND +t.tenant_id = ? AND +t.state = 'OPEN'", [opts.instanceId, tenantId]]
        : ["t.tenant_id = ? AND t.state = 'OPEN'", [tenantId]];
      const rows = db
        .query<TaskRow, (string | number)[]>(
          `SELECT t.* FROM tasks t WHERE ${scope} AND ${vis.sql} ORDER BY t.created DESC, t.id DESC LIMIT ? OFFSET ?`,
        )
        .all(...scopeParams, ...vis.params, size, page * size);
      return rows.map((r) => taskView(toTask(r)));
    },

    /** Completed tasks the viewer sees (Managers: all of the tenant), most recently completed first. */
    completedTasks(tenantId: string, v: Visibility, opts: { page?: number; size?: number } = {}): TaskView[] {
      const { page, size } = paging(opts, 100, 200);
      const vis = taskVisibilitySql(v);
      const rows = db
        .query<TaskRow, (string | number)[]>(
          `SELECT t.* FROM tasks t WHERE t.tenant_id = ? AND t.state = 'COMPLETED' AND ${vis.sql} ORDER BY t.completed_at DESC, t.id LIMIT ? OFFSET ?`,
        )
        .all(tenantId, ...vis.params, size, page * size);
      return rows.map((r) => taskView(toTask(r)));
    },

    /** Completes a task: variables first, then the process moves on, all in one transaction. Exactly one of two racing completions wins. */
    async completeTask(
      tenantId: string,
      taskId: string,
      variables: Record<string, unknown> = {},
      actor: { userId: string | null; channel: Channel },
    ) {
      // The engine reads the task inside the command (404 when absent, 409 when no longer open): no second read here.
      const done = await ctx.command(tenantId, (s) =>
        ctx.engine.completeTask(s, taskId, variables, { userId: actor.userId, channel: actor.channel }),
      );
      return taskView(done);
    },

    async claim(tenantId: string, taskId: string, userId: string): Promise<TaskView> {
      const r = await checkedWhenWritable(tenantId, taskId, (t) => {
        requireOpen(t);
        if (t.assignee && t.assignee !== userId)
          throw new ConflictError(`Task ${taskId} is already claimed by another user`);
      });
      ctx.tx(() => {
        const res = db
          .query(
            "UPDATE tasks SET assignee = ? WHERE id = ? AND tenant_id = ? AND state = 'OPEN' AND (assignee IS NULL OR assignee = ?)",
          )
          .run(userId, taskId, tenantId, userId);
        if (res.changes === 0) throw new ConflictError(`Task ${taskId} was claimed or completed meanwhile`);
        involve(tenantId, r.instance_id, userId);
        if (r.assignee !== userId) assigned(tenantId, { ...r, assignee: userId });
      });
      return api.getTask(tenantId, taskId);
    },

    /** Returns the task to its candidates. */
    async unclaim(tenantId: string, taskId: string): Promise<TaskView> {
      await checkedWhenWritable(tenantId, taskId, requireOpen);
      db.query("UPDATE tasks SET assignee = NULL WHERE id = ? AND tenant_id = ? AND state = 'OPEN'").run(
        taskId,
        tenantId,
      );
      return api.getTask(tenantId, taskId);
    },

    /** Hands the task to another user; the previous assignee (or the caller) becomes its owner. */
    async delegate(
      tenantId: string,
      taskId: string,
      toUserId: string,
      byUserId: string | null = null,
    ): Promise<TaskView> {
      const r = await checkedWhenWritable(tenantId, taskId, requireOpen);
      ctx.tx(() => {
        db.query(
          "UPDATE tasks SET owner = COALESCE(owner, ?), assignee = ? WHERE id = ? AND tenant_id = ? AND state = 'OPEN'",
        ).run(r.assignee ?? byUserId, toUserId, taskId, tenantId);
        involve(tenantId, r.instance_id, toUserId);
        assigned(tenantId, { ...r, owner: r.owner ?? r.assignee ?? byUserId, assignee: toUserId });
      });
      return api.getTask(tenantId, taskId);
    },

    /** Writes variables through the task without completing it. */
    async setTaskVariables(
      tenantId: string,
      taskId: string,
      variables: Record<string, unknown>,
    ): Promise<Record<string, unknown>> {
      requireOpen(row(tenantId, taskId));
      await ctx.command(tenantId, (s) => ctx.engine.setTaskVariables(s, taskId, variables));
      return api.getTaskVariables(tenantId, taskId);
    },

    /** Variables visible from the task's execution (its scopes up to the instance). */
    getTaskVariables(tenantId: string, taskId: string): Record<string, unknown> {
      const { r, scopes, stored } = readSnapshot(db, () => {
        const r = row(tenantId, taskId);
        return { r, scopes: q.scopes.all(r.instance_id, tenantId), stored: q.variables.all(r.instance_id, tenantId) };
      });
      const parents = new Map(scopes.map((e) => [e.id, e.parent_id]));
      const chain: string[] = [];
      for (let id: string | null | undefined = r.execution_id; id; id = parents.get(id)) chain.unshift(id);
      if (chain[0] !== r.instance_id) chain.unshift(r.instance_id);
      // Outer scopes first, so that a name set nearer the task wins; only the chain's values are parsed.
      const depth = new Map(chain.map((id, i) => [id, i]));
      const seen = stored.filter((v) => depth.has(v.execution_id));
      seen.sort((a, b) => (depth.get(a.execution_id) ?? 0) - (depth.get(b.execution_id) ?? 0));
      const out: Record<string, unknown> = {};
      for (const v of seen) out[v.name] = JSON.parse(v.value);
      return out;
    },
  };
  return api;
}
