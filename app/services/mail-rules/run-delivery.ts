import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { mailDeliveries, mailInboxes, mailRules } from "../../../db/tenant/schema";
import type { TenantCtx } from "../context";
import { startInstance } from "../instances/start-instance";
import { attachStream } from "../attachments/attach";
import { NotFoundError } from "../errors";
import { correlationKeyOf, mapVariables, ruleMatches, type MessageFacts } from "./match";
import { type RuleView, ruleView } from "./manage";

type Outcome = typeof mailDeliveries.$inferSelect.outcome;

/**
 * The variable every instance started by mail carries: the delivery's id. It is written in the start's own
 * transaction, so after a crash between the start and the delivery's outcome the instance is found by it and linked
 * rather than started a second time.
 */
export const MAIL_DELIVERY_VARIABLE = "mailDeliveryId";

/** The running or ended process instance a delivery started, if any (found by its delivery-id variable). */
export function instanceOfDelivery(ctx: TenantCtx, deliveryId: string) {
  const page = ctx.processRuntime.searchInstancesByVariable(
    ctx.tenant.id,
    { all: true, userId: null, groups: [] },
    MAIL_DELIVERY_VARIABLE,
    deliveryId,
    { page: 0, size: 1 },
  );
  return page.content[0] ?? null;
}

/** Deliveries being run by this process now (a retry, a poll): never settled as orphans meanwhile. */
export const running = new Set<string>();

/**
 * Runs a recorded delivery (PENDING) through the rules: the first enabled rule that matches starts its definition
 * with the mapped variables and the message's attachments. `resumed`: the delivery was cut short before (a crash) or
 * is retried; when an instance already carries its id, it is linked instead of started again.
 */
export async function runDelivery(
  ctx: TenantCtx,
  delivery: { id: string; inboxId: string },
  parsed: ParsedMail,
  facts: MessageFacts,
  opts: { resumed?: boolean } = {},
): Promise<void> {
  running.add(delivery.id);
  try {
    await runOnce(ctx, delivery, parsed, facts, opts);
  } finally {
    running.delete(delivery.id);
  }
}

async function runOnce(
  ctx: TenantCtx,
  delivery: { id: string; inboxId: string },
  parsed: ParsedMail,
  facts: MessageFacts,
  opts: { resumed?: boolean },
): Promise<void> {
  const finish = (outcome: Outcome, more: Partial<typeof mailDeliveries.$inferInsert> = {}) =>
    ctx.db.orm
      .update(mailDeliveries)
      .set({ outcome, reason: null, ...more })
      .where(eq(mailDeliveries.id, delivery.id))
      .run();
  if (opts.resumed) {
    const earlier = instanceOfDelivery(ctx, delivery.id);
    if (earlier) {
      finish("STARTED", {
        instanceId: earlier.id,
        businessKey: earlier.businessKey,
        reason: "resumed: linked to the instance it had started before it was interrupted",
      });
      return;
    }
  }
  const rules = ctx.db.orm
    .select()
    .from(mailRules)
    .where(and(eq(mailRules.enabled, true), or(isNull(mailRules.inboxId), eq(mailRules.inboxId, delivery.inboxId))))
    .orderBy(asc(mailRules.priority), asc(mailRules.createdAt))
    .all()
    .map(ruleView);
  let rule: (typeof rules)[number] | undefined;
  try {
    rule = rules.find((r) => ruleMatches(r.match, facts));
  } catch (e) {
    finish("FAILED", { reason: `rule evaluation failed: ${e instanceof Error ? e.message : e}` });
    return;
  }
  if (!rule) {
    finish("NO_RULE");
    return;
  }
  const ruleId = rule.id;
  if (rule.correlate && (await correlate(ctx, delivery.id, rule, parsed, facts, finish))) return;
  try {
    // Refused before the start, so a message whose files cannot be kept leaves no instance.
    const policy = ctx.processAccess.policyOf(ctx, rule.definitionKey);
    if (parsed.attachments.length > 0 && policy?.uploadMode === "DISABLED")
      throw new Error(`attachments are disabled for '${rule.definitionKey}'`);
    const started = await startInstance({
      ctx,
      input: {
        definitionKey: rule.definitionKey,
        variables: { ...mapVariables(rule.mapping, facts), [MAIL_DELIVERY_VARIABLE]: delivery.id },
      },
    });
    finish("STARTED", { ruleId, instanceId: started.id, businessKey: started.businessKey });
    const failed = await attachAll(ctx, parsed, started.id, rule.attachmentDocumentTypeId);
    if (failed.length)
      finish("STARTED", {
        ruleId,
        instanceId: started.id,
        businessKey: started.businessKey,
        reason: `attachments not stored: ${failed.join("; ")}`,
      });
  } catch (e) {
    finish("FAILED", { ruleId, reason: e instanceof Error ? e.message : String(e) });
  }
}

type Finish = (outcome: Outcome, more?: Partial<typeof mailDeliveries.$inferInsert>) => unknown;

/** The business key of the thread: that of the latest earlier delivery whose Message-ID this mail answers. */
function threadKey(ctx: TenantCtx, inReplyTo: string | null | undefined): string | null {
  if (!inReplyTo) return null;
  // By (inbox, Message-ID) for each inbox: the unique index serves it, where Message-ID alone would scan the log.
  const inboxes = ctx.db.orm
    .select({ id: mailInboxes.id })
    .from(mailInboxes)
    .all()
    .map((i) => i.id);
  const rows = ctx.db.orm
    .select({ key: mailDeliveries.businessKey, at: mailDeliveries.createdAt })
    .from(mailDeliveries)
    .where(and(inArray(mailDeliveries.inboxId, inboxes), eq(mailDeliveries.messageId, inReplyTo)))
    .all()
    .filter((r) => r.key)
    .sort((a, b) => b.at.localeCompare(a.at));
  return rows[0]?.key ?? null;
}

/**
 * A correlating rule: the mail goes as message `messageName` to the instance with the business key read from it (its
 * catch event or receive task gets the mapped variables, the delivery id and the attachments). True when the
 * delivery is settled; false when nothing waits and the rule falls back to starting its definition.
 */
async function correlate(
  ctx: TenantCtx,
  deliveryId: string,
  rule: RuleView,
  parsed: ParsedMail,
  facts: MessageFacts,
  finish: Finish,
): Promise<boolean> {
  const c = rule.correlate!;
  const ruleId = rule.id;
  let key: string | null;
  try {
    key = c.key.source === "IN_REPLY_TO" ? threadKey(ctx, facts.inReplyTo) : correlationKeyOf(c, facts);
  } catch (e) {
    finish("FAILED", { ruleId, reason: `correlation key: ${e instanceof Error ? e.message : e}` });
    return true;
  }
  const noMatch = (why: string) => {
    if (c.fallback === "START") return false;
    finish("NO_MATCH", { ruleId, businessKey: key, reason: why });
    return true;
  };
  if (!key) return noMatch(`no business key in the mail (${c.key.source.toLowerCase().replaceAll("_", "-")})`);
  try {
    const variables = { ...mapVariables(rule.mapping, facts), [MAIL_DELIVERY_VARIABLE]: deliveryId };
    const [target] = await ctx.processRuntime.correlateMessage(ctx.tenant.id, c.messageName, {
      businessKey: key,
      variables,
    });
    if (!target) return noMatch(`no instance waits for message '${c.messageName}' with business key '${key}'`);
    const settled = { ruleId, instanceId: target.instanceId, businessKey: key };
    finish(target.started ? "STARTED" : "CORRELATED", settled);
    const failed = await attachAll(ctx, parsed, target.instanceId, rule.attachmentDocumentTypeId);
    if (failed.length)
      finish(target.started ? "STARTED" : "CORRELATED", {
        ...settled,
        reason: `attachments not stored: ${failed.join("; ")}`,
      });
  } catch (e) {
    if (e instanceof NotFoundError)
      return noMatch(`no instance waits for message '${c.messageName}' with business key '${key}'`);
    finish("FAILED", { ruleId, businessKey: key, reason: e instanceof Error ? e.message : String(e) });
  }
  return true;
}

/** Stores each attachment on the instance; returns what could not be stored (the start stands). */
async function attachAll(ctx: TenantCtx, parsed: ParsedMail, instanceId: string, documentTypeId: string | null) {
  const failed: string[] = [];
  for (const a of parsed.attachments) {
    try {
      await attachStream(
        ctx,
        {
          entityType: "PROCESS_INSTANCE",
          entityId: instanceId,
          fileName: a.filename ?? "attachment",
          contentType: a.contentType || "application/octet-stream",
          documentTypeId,
          data: new Blob([new Uint8Array(a.content)]).stream(),
        },
        "PROCESS",
      );
    } catch (e) {
      failed.push(`${a.filename ?? "attachment"}: ${e instanceof Error ? e.message : e}`);
    }
  }
  return failed;
}
