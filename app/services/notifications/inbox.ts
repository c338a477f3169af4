import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { notifications } from "../../../db/platform/schema";
import type { TenantCtx } from "../context";

/** The notification inbox lives in the platform database. */
export type NotificationsCtx = TenantCtx<"platformDb">;
import { ForbiddenError, NotFoundError } from "../errors";
import { pageOf, pageParams } from "../../../db/pagination";
import { notificationView } from "./notify";

/** Notifications belong to a person: the user id always comes from the token, and an API key has none. */
function callerId(ctx: NotificationsCtx): string {
  if (ctx.actor.kind !== "user" || !ctx.actor.userId) {
    throw new ForbiddenError("Notifications belong to a user; an API key has no notifications");
  }
  return ctx.actor.userId;
}

const mine = (ctx: NotificationsCtx, userId: string) =>
  and(eq(notifications.userId, userId), eq(notifications.tenantId, ctx.tenant.id));

/** GET /a/notifications: the caller's, in the current tenant, newest first; `unread` narrows to unread ones. */
export function listNotifications({
  ctx,
  input: q,
}: {
  ctx: NotificationsCtx;
  input: { page?: number; size?: number; unread?: boolean };
}) {
  const userId = callerId(ctx);
  const { page, size, offset } = pageParams(q.page, q.size, 20, 100);
  const where = q.unread ? and(mine(ctx, userId), isNull(notifications.readAt)) : mine(ctx, userId);
  const db = ctx.platformDb;
  const total = db.select({ n: count() }).from(notifications).where(where).get()?.n ?? 0;
  // rowid is insertion order: stable newest-first even when several rows share a timestamp.
  const rows = db.select().from(notifications).where(where).orderBy(desc(sql`rowid`)).limit(size).offset(offset).all();
  return pageOf(rows.map(notificationView), total, page, size);
}

/**
 * PUT /a/notifications/{id}/read. Another user's notification is refused with 403 before anything is written; one of
 * the caller's own in another tenant is not visible here (404), like any unknown id.
 */
export function markRead({ ctx, input: { id } }: { ctx: NotificationsCtx; input: { id: string } }) {
  const userId = callerId(ctx);
  const db = ctx.platformDb;
  const row = db.select().from(notifications).where(eq(notifications.id, id)).get();
  if (!row || (row.userId === userId && row.tenantId !== ctx.tenant.id))
    throw new NotFoundError(`Notification ${id} not found`);
  if (row.userId !== userId) throw new ForbiddenError("This notification belongs to another user");
  if (row.readAt) return notificationView(row);
  const readAt = new Date(ctx.clock.now()).toISOString();
  db.update(notifications).set({ readAt }).where(eq(notifications.id, id)).run();
  return notificationView({ ...row, readAt });
}

/** PUT /a/notifications/read-all: every unread notification of the caller in this tenant; answers how many changed. */
export function markAllRead({ ctx }: { ctx: NotificationsCtx; input?: undefined }) {
  const userId = callerId(ctx);
  const readAt = new Date(ctx.clock.now()).toISOString();
  const res = ctx.platformDb.$client
    .query(`UPDATE notifications SET read_at = ? WHERE user_id = ? AND tenant_id = ? AND read_at IS NULL`)
    .run(readAt, userId, ctx.tenant.id);
  return { updated: res.changes };
}
