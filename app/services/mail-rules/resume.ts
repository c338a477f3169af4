import { and, eq } from "drizzle-orm";
import { mailDeliveries } from "../../../db/tenant/schema";
import type { ImapSession } from "../../outbound/imap";
import type { TenantCtx } from "../context";
import { factsOf } from "./deliver";
import { parseMail } from "./parse";
import { instanceOfDelivery, running, runDelivery } from "./run-delivery";

const LINKED = "resumed: linked to the instance it had started before it was interrupted";

/**
 * Runs a delivery again from its message as the inbox holds it now (fetched by Message-ID, read or not): linked when
 * an instance carries its id, otherwise through the rules. False when the message is no longer in the folder.
 */
export async function rerunFromInbox(
  ctx: TenantCtx,
  session: ImapSession,
  delivery: { id: string; inboxId: string; messageId: string },
): Promise<boolean> {
  if (delivery.messageId.startsWith("sha256:")) return false; // no Message-ID: it cannot be looked up
  const m = await session.byMessageId(delivery.messageId);
  if (!m) return false;
  const parsed = await parseMail(m.source);
  await runDelivery(ctx, delivery, parsed, factsOf(parsed), { resumed: true });
  return true;
}

/**
 * Deliveries still PENDING after their inbox was read (their message was no longer unread: read by someone, or
 * flagged by a crashed run before its outcome was recorded): linked to the instance that carries their id, run again
 * from the message where the folder still holds it, else FAILED with the way out (the retry route).
 */
export async function settleOrphans(ctx: TenantCtx, session: ImapSession, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    if (running.has(id)) continue;
    const row = ctx.db.orm.select().from(mailDeliveries).where(eq(mailDeliveries.id, id)).get();
    if (row?.outcome !== "PENDING") continue;
    const earlier = instanceOfDelivery(ctx, id);
    const set = (more: Partial<typeof mailDeliveries.$inferInsert>) =>
      ctx.db.orm
        .update(mailDeliveries)
        .set(more)
        .where(and(eq(mailDeliveries.id, id), eq(mailDeliveries.outcome, "PENDING")))
        .run();
    if (earlier) {
      set({ outcome: "STARTED", instanceId: earlier.id, businessKey: earlier.businessKey, reason: LINKED });
      continue;
    }
    if (await rerunFromInbox(ctx, session, row)) continue;
    set({
      outcome: "FAILED",
      reason:
        "interrupted before its outcome was recorded, and its message is no longer in the folder; " +
        "POST /a/mail-deliveries/{id}/retry runs it again once it is back",
    });
  }
}
