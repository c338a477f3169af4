import { and, asc, eq, isNull, or } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { mailDeliveries, mailRules } from "../../../db/tenant/schema";
import type { TenantCtx } from "../context";
import { startInstance } from "../instances/start-instance";
import { attachStream } from "../attachments/attach";
import { processAccess } from "../attachments/process-access";
import { mapVariables, ruleMatches, type MessageFacts } from "./match";
import { ruleView } from "./manage";

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
  try {
    // Refused before the start, so a message whose files cannot be kept leaves no instance.
    const policy = processAccess().policyOf(ctx, rule.definitionKey);
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
