import { createHash } from "node:crypto";
import { and, asc, eq, isNull, or } from "drizzle-orm";
import type { ParsedMail, AddressObject } from "mailparser";
import { mailDeliveries, mailRules } from "../../../db/tenant/schema";
import type { Actor, TenantCtx } from "../context";
import { startInstance } from "../instances/start-instance";
import { attachStream } from "../attachments/attach";
import { SYSTEM_ACTOR } from "../attachments/system-actor";
import { mapVariables, ruleMatches, type MessageFacts } from "./match";
import { ruleView } from "./manage";

/** Mail acts as the system on its tenant (passes role checks, never the delete rule), recorded on channel MAIL. */
export const MAIL_ACTOR: Actor = { ...SYSTEM_ACTOR, channel: "MAIL" };

export type DeliverCtx = TenantCtx;
type Outcome = typeof mailDeliveries.$inferSelect.outcome;

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? "")).filter(Boolean);

function factsOf(m: ParsedMail): MessageFacts {
  return {
    from: addresses(m.from)[0] ?? null,
    to: [...addresses(m.to), ...addresses(m.cc)],
    subject: m.subject ?? "",
    text: m.text ?? "",
    date: m.date ? m.date.toISOString() : null,
    attachmentCount: m.attachments.length,
  };
}

/**
 * Handles one raw message of an inbox once: the delivery row (keyed by inbox and Message-ID, or a hash of the content
 * when there is none) is committed before any effect, so a message seen again — after a crash, a restart or a failed
 * flag — is never started twice. Returns whether it was new.
 */
export async function deliverMessage(ctx: DeliverCtx, inboxId: string, source: Buffer): Promise<boolean> {
  const { simpleParser } = await import("mailparser"); // imported on first use: start-up does not pay for it
  const parsed = await simpleParser(source);
  const messageId = parsed.messageId ?? `sha256:${createHash("sha256").update(source).digest("hex")}`;
  const facts = factsOf(parsed);
  const id = crypto.randomUUID();
  const inserted = ctx.db.orm
    .insert(mailDeliveries)
    .values({
      id,
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
  if (inserted.length === 0) return false;
  const finish = (outcome: Outcome, more: Partial<typeof mailDeliveries.$inferInsert> = {}) =>
    ctx.db.orm
      .update(mailDeliveries)
      .set({ outcome, ...more })
      .where(eq(mailDeliveries.id, id))
      .run();

  const rules = ctx.db.orm
    .select()
    .from(mailRules)
    .where(and(eq(mailRules.enabled, true), or(isNull(mailRules.inboxId), eq(mailRules.inboxId, inboxId))))
    .orderBy(asc(mailRules.priority), asc(mailRules.createdAt))
    .all()
    .map(ruleView);
  let rule: (typeof rules)[number] | undefined;
  try {
    rule = rules.find((r) => ruleMatches(r.match, facts));
  } catch (e) {
    finish("FAILED", { reason: `rule evaluation failed: ${e instanceof Error ? e.message : e}` });
    return true;
  }
  if (!rule) {
    finish("NO_RULE");
    return true;
  }
  const ruleId = rule.id;
  try {
    // Refused before the start, so a message whose files cannot be kept leaves no instance.
    const policy = ctx.processAccess.policyOf(ctx, rule.definitionKey);
    if (parsed.attachments.length > 0 && policy?.uploadMode === "DISABLED")
      throw new Error(`attachments are disabled for '${rule.definitionKey}'`);
    const started = await startInstance({
      ctx,
      input: { definitionKey: rule.definitionKey, variables: mapVariables(rule.mapping, facts) },
    });
    finish("STARTED", { ruleId, instanceId: started.id, businessKey: started.businessKey });
    const failed: string[] = [];
    for (const a of parsed.attachments) {
      try {
        await attachStream(
          ctx,
          {
            entityType: "PROCESS_INSTANCE",
            entityId: started.id,
            fileName: a.filename ?? "attachment",
            contentType: a.contentType || "application/octet-stream",
            documentTypeId: rule.attachmentDocumentTypeId,
            data: new Blob([new Uint8Array(a.content)]).stream(),
          },
          "PROCESS",
        );
      } catch (e) {
        failed.push(`${a.filename ?? "attachment"}: ${e instanceof Error ? e.message : e}`);
      }
    }
    if (failed.length) finish("STARTED", { reason: `attachments not stored: ${failed.join("; ")}` });
  } catch (e) {
    finish("FAILED", { ruleId, reason: e instanceof Error ? e.message : String(e) });
  }
  return true;
}
