import { count, desc, eq } from "drizzle-orm";
import { mailDeliveries } from "../../../db/tenant/schema";
import { pageOf, pageParams } from "../../../db/pagination";
import type { TenantCtx } from "../context";

export type MailDeliveriesCtx = TenantCtx<"db">;
export const DELIVERY_OUTCOMES = ["PENDING", "STARTED", "CORRELATED", "NO_MATCH", "NO_RULE", "FAILED"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** GET /a/mail-deliveries: every message read, newest first, optionally of one outcome. */
export function listDeliveries({
  ctx,
  input,
}: {
  ctx: MailDeliveriesCtx;
  input: { outcome?: DeliveryOutcome; page?: number; size?: number };
}) {
  const { page, size, offset } = pageParams(input.page, input.size, 20, 100);
  const where = input.outcome ? eq(mailDeliveries.outcome, input.outcome) : undefined;
  const rows = ctx.db.orm
    .select()
    .from(mailDeliveries)
    .where(where)
    .orderBy(desc(mailDeliveries.createdAt), desc(mailDeliveries.id))
    .limit(size)
    .offset(offset)
    .all();
  const total = ctx.db.orm.select({ n: count() }).from(mailDeliveries).where(where).get()?.n ?? 0;
  return pageOf(rows, total, page, size);
}
