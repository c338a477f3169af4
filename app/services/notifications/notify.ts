import { notifications } from "../../../db/platform/schema";
import type { PlatformOrm } from "../../../tenants/tenant-directory";

export interface NewNotification {
  tenantId: string;
  userId: string;
  /** TASK_ASSIGNED, TASK_DELEGATED, AI_TASK_FAILED, ... */
  type: string;
  title: string;
  body: string;
  /** Where the client should take the user, e.g. `/tasks/<id>`. */
  link?: string | null;
}

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * Stores a notification for one user of one tenant. Call it inside the same platform-db transaction as the change it
 * reports when there is one. `now` is the platform clock's epoch milliseconds (tests use a manual clock).
 */
export function notify(platformDb: PlatformOrm, input: NewNotification, now: number = Date.now()): NotificationRow {
  const row: NotificationRow = {
    id: crypto.randomUUID(),
    tenantId: input.tenantId,
    userId: input.userId,
    type: input.type,
    title: input.title,
    body: input.body,
    link: input.link ?? null,
    readAt: null,
    createdAt: new Date(now).toISOString(),
  };
  platformDb.insert(notifications).values(row).run();
  return row;
}

export function notificationView(n: NotificationRow) {
  return {
    id: n.id,
    type: n.type,
    title: n.title,
    body: n.body,
    link: n.link,
    read: n.readAt !== null,
    readAt: n.readAt,
    createdAt: n.createdAt,
  };
}
