import type { TenantCtx } from "../context";
import { formForVersion } from "../forms/task-forms";
import { withPeople } from "../people/people";
import { visibilityOf } from "../instances/visibility";
import { type TaskAccessCtx, variablesOfTask, visibleTask } from "./access";
import { type InboxCtx, openTasksAssignedTo, openTasksOfUser } from "./inbox";
import { isFiltered } from "../../runtime/kernel/task-filter";
import { taskFilterOf, type TaskFilterInput } from "./filter";

export interface TaskListQuery extends TaskFilterInput {
  page?: number;
  size?: number;
}

/** The people a task names (its assignee, who completed it), beside their ids: clients show names. */
const NAMED = ["assignee", "completedBy"] as const;

/**
 * GET /a/tasks: open tasks the caller sees (page zero-based, size ≤ 200); `mine` narrows to tasks assigned to them.
 * Each carries `assigneeUser` (name and e-mail).
 */
export function listTasks({ ctx, input }: { ctx: InboxCtx & TenantCtx<"platformDb">; input: TaskListQuery }) {
  return withPeople(ctx.platformDb, ctx.tenant.id, openTasks(ctx, input), [...NAMED]);
}

function openTasks(ctx: InboxCtx & TenantCtx<"platformDb">, input: TaskListQuery) {
  const v = visibilityOf(ctx);
  // The tasklist's filters and sorts; the plain inbox keeps its index-only paths below.
  const filter = taskFilterOf(input);
  if (isFiltered(filter)) return ctx.processRuntime.filterTasks(ctx.tenant.id, v, filter, input);
  if (input.mine) return openTasksAssignedTo({ ctx, input });
  if (v.all) return ctx.processRuntime.listTasks(ctx.tenant.id, v, input);
  return openTasksOfUser({ ctx, input: { ...input, visibility: v } });
}

/** GET /a/tasks/count: how many open tasks the caller sees that match the same filters as GET /a/tasks. */
export function countTasks({ ctx, input }: { ctx: InboxCtx & TenantCtx<"platformDb">; input: TaskFilterInput }) {
  return { count: ctx.processRuntime.countTasks(ctx.tenant.id, visibilityOf(ctx), taskFilterOf(input)) };
}

/** GET /a/tasks/completed */
export function listCompletedTasks({
  ctx,
  input,
}: {
  ctx: TenantCtx<"processRuntime" | "platformDb">;
  input: { page?: number; size?: number };
}) {
  return withPeople(
    ctx.platformDb,
    ctx.tenant.id,
    ctx.processRuntime.completedTasks(ctx.tenant.id, visibilityOf(ctx), input),
    [...NAMED],
  );
}

/** GET /a/tasks/{id}: the task and the form of the version locked at its creation (null when it has none). */
export function taskDetail({
  ctx,
  input,
}: {
  ctx: TaskAccessCtx & TenantCtx<"db" | "platformDb" | "ai">;
  input: { taskId: string };
}) {
  const [task] = withPeople(ctx.platformDb, ctx.tenant.id, [visibleTask(ctx, input.taskId)], [...NAMED]);
  const form = task.formVersionId ? formForVersion(ctx.db, task.formVersionId) : null;
  // Whether ai-suggest can answer at all: clients offer it only then.
  return { ...task, form, aiSuggestAvailable: ctx.ai.chatModel !== null };
}

/** GET /a/tasks/{id}/variables */
export function taskVariables({ ctx, input }: { ctx: TaskAccessCtx; input: { taskId: string } }) {
  return variablesOfTask(ctx, visibleTask(ctx, input.taskId));
}
