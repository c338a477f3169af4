import type { TaskComment } from "../../runtime/kernel/task-comments";
import { type TaskAccessCtx, visibleTask } from "./access";

export type CommentsCtx = TaskAccessCtx;

const view = (r: TaskComment) => ({
  id: r.id,
  userId: r.userId,
  message: r.message,
  time: new Date(r.time).toISOString(),
});

/** GET /a/tasks/{id}/comments, oldest first. */
export function listComments({ ctx, input: { taskId } }: { ctx: CommentsCtx; input: { taskId: string } }) {
  visibleTask(ctx, taskId);
  return ctx.processRuntime.taskComments(ctx.tenant.id, taskId).map(view);
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
  return view(row);
}
