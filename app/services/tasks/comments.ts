import type { taskComments } from "../../../db/engine/schema";
import type { RequestCtx } from "../context";
import { visibleTask } from "./access";

const view = (r: typeof taskComments.$inferSelect) => ({
  id: r.id,
  userId: r.userId,
  message: r.message,
  time: new Date(r.time).toISOString(),
});

/** GET /a/tasks/{id}/comments, oldest first. */
export function listComments(ctx: RequestCtx, taskId: string) {
  visibleTask(ctx, taskId);
  return ctx.platform.processRuntime.taskComments(ctx.tenant.id, taskId).map(view);
}

/** POST /a/tasks/{id}/comments: anyone who sees the task may comment, also after its completion. */
export function addComment(ctx: RequestCtx, taskId: string, message: string) {
  visibleTask(ctx, taskId);
  const row = {
    id: crypto.randomUUID(),
    tenantId: ctx.tenant.id,
    taskId,
    userId: ctx.actor.userId,
    message,
    time: ctx.platform.clock.now(),
  };
  ctx.platform.processRuntime.addTaskComment(row);
  return view(row);
}
