import { and, asc, eq, sql } from "drizzle-orm";
import { taskComments } from "../../../db/engine/schema";
import { engineHandlesOf, type RequestCtx } from "../context";
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
  return engineHandlesOf(ctx)
    .engineDb.select()
    .from(taskComments)
    .where(and(eq(taskComments.tenantId, ctx.tenant.id), eq(taskComments.taskId, taskId)))
    .orderBy(asc(taskComments.time), asc(sql`rowid`))
    .all()
    .map(view);
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
    time: ctx.clock.now(),
  };
  engineHandlesOf(ctx).engineDb.insert(taskComments).values(row).run();
  return view(row);
}
