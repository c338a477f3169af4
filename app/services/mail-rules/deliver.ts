import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { ParsedMail, AddressObject } from "mailparser";
import { mailDeliveries } from "../../../db/tenant/schema";
import type { Actor, TenantCtx } from "../context";
import { SYSTEM_ACTOR } from "../attachments/system-actor";
import type { MessageFacts } from "./match";
import { parseMail } from "./parse";
import { runDelivery } from "./run-delivery";

/** Mail acts as the system on its tenant (passes role checks, never the delete rule), recorded on channel MAIL. */
export const MAIL_ACTOR: Actor = { ...SYSTEM_ACTOR, channel: "MAIL" };

export type DeliverCtx = TenantCtx;

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? "")).filter(Boolean);

export function factsOf(m: ParsedMail): MessageFacts {
  const headers: Record<string, string> = {};
  for (const h of m.headerLines) {
    const value = h.line
      .slice(h.line.indexOf(":") + 1)
      .replace(/\r?\n[ \t]+/g, " ")
      .trim();
    headers[h.key.toLowerCase()] ??= value;
  }
  return {
    headers,
    inReplyTo: m.inReplyTo ?? null,
    from: addresses(m.from)[0] ?? null,
    to: [...addresses(m.to), ...addresses(m.cc)],
    subject: m.subject ?? "",
    text: m.text ?? "",
    date: m.date ? m.date.toISOString() : null,
    attachmentCount: m.attachments.length,
  };
}

/** The key a message counts once by: its Message-ID, or a hash of its content when it has none. */
export const messageKeyOf = (parsed: ParsedMail, source: Buffer) =>
  parsed.messageId ?? `sha256:${createHash("sha256").update(source).digest("hex")}`;

/**
 * Handles one raw message of an inbox once: the delivery row (keyed by inbox and Message-ID, or a hash of the content
 * when there is none) is committed before any effect, so a message seen again — after a restart or a failed flag — is
 * never started twice. A row still PENDING when its message is seen again was cut short by a crash before its outcome
 * was recorded (the message stays unread until then): it is resumed, linked to the instance that carries its id or
 * started now (at least once, never twice). Returns whether the message was handled now.
 */
export async function deliverMessage(ctx: DeliverCtx, inboxId: string, source: Buffer): Promise<boolean> {
  const parsed = await parseMail(source);
  const messageId = messageKeyOf(parsed, source);
  const facts = factsOf(parsed);
  const inserted = ctx.db.orm
    .insert(mailDeliveries)
    .values({
      id: crypto.randomUUID(),
      inboxId,
      messageId,
      fromAddress: facts.from,
      subject: facts.subject,
      receivedAt: facts.date,
      outcome: "PENDING",
      createdAt: new Date(ctx.clock.now()).toISOString(),
    })
    .onConflictDoNothing()
    .returning({ id: mailDeliveries.id })
    .all();
  if (inserted[0]) {
    await runDelivery(ctx, { id: inserted[0].id, inboxId }, parsed, facts);
    return true;
  }
  const seen = ctx.db.orm
    .select({ id: mailDeliveries.id, outcome: mailDeliveries.outcome })
    .from(mailDeliveries)
    .where(and(eq(mailDeliveries.inboxId, inboxId), eq(mailDeliveries.messageId, messageId)))
    .get();
  if (seen?.outcome !== "PENDING") return false;
  await runDelivery(ctx, { id: seen.id, inboxId }, parsed, facts, { resumed: true });
  return true;
}
