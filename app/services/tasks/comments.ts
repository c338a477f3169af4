import { and, asc, eq, sql } from "drizzle-orm";
import { taskComments } from "../../../db/engine/schema";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type * as engineSchema from "../../../db/engine/schema";
import { type TaskAccessCtx, visibleTask } from "./access";

/**
 * TRANSITIONAL: comments live in the engine database, which belongs to app/runtime; until the runtime answers them
 * they use the engine handle the request ctx still carries (never a port).
 */
export type CommentsCtx = TaskAccessCtx & { platform: { engineDb: BunSQLiteDatabase<typeof engineSchema> } };

const view = (r: typeof taskComments.$inferSelect) => ({
  id: r.id,
  userId: r.userId,
  message: r.message,
  time: new Date(r.time).toISOString(),
});

/** GET /a/tasks/{id}/comments, oldest first. */
export function listComments({ ctx, input: { taskId } }: { ctx: CommentsCtx; input: { taskId: string } }) {
  visibleTask(ctx, taskId);
  return ctx.platform.engineDb
    .select()
    .from(taskComments)
    .where(and(eq(taskComments.tenantId, ctx.tenant.id), eq(taskComments.taskId, taskId)))
    .orderBy(asc(taskComments.time), asc(sql`rowid`))
    .all()
    .map(view);
}

/** POST /a/tasks/{id}/comments: anyone who sees the task may comment, also after its completion. */
export function addComment({
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
  ctx.platform.engineDb.insert(taskComments).values(row).run();
  return view(row);
}
