import { and, eq } from "drizzle-orm";
import { mailDeliveries, mailInboxes } from "../../../db/tenant/schema";
import { imapErrorText, openImapSession } from "../../outbound/imap";
import type { TenantCtx } from "../context";
import { ConflictError, NotFoundError, ServiceUnavailableError } from "../errors";
import { inboxAccount } from "../mail-inboxes/account";
import { MAIL_ACTOR } from "../mail-rules/deliver";
import { rerunFromInbox } from "../mail-rules/resume";

/**
 * POST /a/mail-deliveries/{id}/retry (Modeler): runs a FAILED delivery through the rules again, from its message as
 * the inbox holds it now (looked up by Message-ID in the inbox's folder, then in the folder read mail is moved to).
 * An instance that already carries the delivery's id is linked instead of a second start. The Modeler asks; the run
 * acts as mail does (the system on channel MAIL), so it starts and stores exactly what the first run would have.
 */
export async function retryDelivery({ ctx, input }: { ctx: TenantCtx; input: { id: string } }) {
  const row = ctx.db.orm.select().from(mailDeliveries).where(eq(mailDeliveries.id, input.id)).get();
  if (!row) throw new NotFoundError(`Mail delivery ${input.id} not found`);
  if (row.outcome !== "FAILED")
    throw new ConflictError(`Mail delivery ${input.id} is ${row.outcome}; only a FAILED delivery can be retried`);
  if (row.messageId.startsWith("sha256:"))
    throw new ConflictError("The message has no Message-ID, so it cannot be fetched from the inbox again");
  const inbox = ctx.db.orm.select().from(mailInboxes).where(eq(mailInboxes.id, row.inboxId)).get();
  if (!inbox) throw new ConflictError(`The inbox of mail delivery ${input.id} no longer exists`);
  const folders = [inbox.folder, ...(inbox.afterRead === "MOVE" && inbox.moveToFolder ? [inbox.moveToFolder] : [])];
  // Claimed first: a second retry at the same time finds it PENDING and is refused.
  const claimed = ctx.db.orm
    .update(mailDeliveries)
    .set({ outcome: "PENDING", reason: null })
    .where(and(eq(mailDeliveries.id, row.id), eq(mailDeliveries.outcome, "FAILED")))
    .returning({ id: mailDeliveries.id })
    .all();
  if (claimed.length === 0) throw new ConflictError(`Mail delivery ${input.id} is already being retried`);
  const giveBack = (reason: string) =>
    ctx.db.orm.update(mailDeliveries).set({ outcome: "FAILED", reason }).where(eq(mailDeliveries.id, row.id)).run();
  let found = false;
  try {
    for (const folder of folders) {
      const session = await openImapSession(await inboxAccount(ctx, inbox), folder);
      try {
        found = await rerunFromInbox({ ...ctx, actor: MAIL_ACTOR }, session, row);
      } finally {
        await session.close();
      }
      if (found) break;
    }
  } catch (e) {
    giveBack(row.reason ?? "failed");
    throw new ServiceUnavailableError(`The inbox could not be read: ${imapErrorText(e)}`);
  }
  if (!found) {
    giveBack(row.reason ?? "failed");
    throw new ConflictError(`The message ${row.messageId} is no longer in ${folders.join(" or ")}`);
  }
  return ctx.db.orm.select().from(mailDeliveries).where(eq(mailDeliveries.id, row.id)).get()!;
}
