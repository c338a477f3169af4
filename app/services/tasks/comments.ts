import type { TaskComment } from "../../runtime/kernel/task-comments";
import { peopleByIds, type Person } from "../people/people";
import { type TaskAccessCtx, visibleTask } from "./access";

export type CommentsCtx = TaskAccessCtx;

/** A comment with its author by name (`author`: null for no user, or one who is not the tenant's). */
const view = (r: TaskComment, people: Map<string, Person>) => ({
  id: r.id,
  userId: r.userId,
  author: (r.userId && people.get(r.userId)) || null,
  message: r.message,
  time: new Date(r.time).toISOString(),
});

/** GET /a/tasks/{id}/comments, oldest first. */
export function listComments({ ctx, input: { taskId } }: { ctx: CommentsCtx; input: { taskId: string } }) {
  visibleTask(ctx, taskId);
  const rows = ctx.processRuntime.taskComments(ctx.tenant.id, taskId);
  const people = peopleByIds(
    ctx.platformDb,
    ctx.tenant.id,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => view(r, people));
}

/** POST /a/tasks/{id}/comments: anyone who sees the task may comment, also after its completion. */
export async function addComment({
  ctx,
  input: { taskId, message },
}: {
  ctx: CommentsCtx;
  input: { taskId: string; message: string };
}) {
  visibleTask(ctx, taskId);
  const row = {
    id: crypto.randomUUID(),
    tenantId: ctx.tenant.id,
    taskId,
    userId: ctx.actor.userId,
    message,
    time: ctx.clock.now(),
  };
  await ctx.processRuntime.addTaskComment(row);
  return view(row, peopleByIds(ctx.platformDb, ctx.tenant.id, [row.userId]));
}
