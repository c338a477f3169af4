import { engineHandlesOf, type RequestCtx } from "../context";
import { formForVersion } from "../forms/task-forms";
import { visibilityOf } from "../process/visibility";
import { variablesOfTask, visibleTask } from "./access";
import { openTasksAssignedTo, openTasksOfUser } from "./inbox";

export interface TaskListQuery {
  page?: number;
  size?: number;
  mine?: boolean;
  instanceId?: string;
}

/** GET /a/tasks: open tasks the caller sees (page zero-based, size ≤ 200); `mine` narrows to tasks assigned to them. */
export function listTasks(ctx: RequestCtx, q: TaskListQuery) {
  const v = visibilityOf(ctx);
  if (q.mine) return openTasksAssignedTo(engineHandlesOf(ctx), ctx.tenant.id, ctx.actor.userId, q);
  if (v.all) return ctx.processRuntime.listTasks(ctx.tenant.id, v, q);
  return openTasksOfUser(engineHandlesOf(ctx), ctx.tenant.id, v, q);
}

/** GET /a/tasks/completed */
export function listCompletedTasks(ctx: RequestCtx, q: { page?: number; size?: number }) {
  return ctx.processRuntime.completedTasks(ctx.tenant.id, visibilityOf(ctx), q);
}

/** GET /a/tasks/{id}: the task and the form of the version locked at its creation (null when it has none). */
export function taskDetail(ctx: RequestCtx, taskId: string) {
  const task = visibleTask(ctx, taskId);
  const form = task.formVersionId ? formForVersion(ctx.db, task.formVersionId) : null;
  return { ...task, form };
}

/** GET /a/tasks/{id}/variables */
export function taskVariables(ctx: RequestCtx, taskId: string) {
  return variablesOfTask(ctx, visibleTask(ctx, taskId));
}
