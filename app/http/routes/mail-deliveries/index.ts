import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import { IdParam, PageQuery, pageSchema } from "../../schemas";
import { DELIVERY_OUTCOMES, listDeliveries } from "../../../services/mail-deliveries/list";
import { retryDelivery } from "../../../services/mail-deliveries/retry";

const DeliverySchema = z
  .object({
    id: z.string(),
    inboxId: z.string(),
    messageId: z.string(),
    fromAddress: z.string().nullable(),
    subject: z.string().nullable(),
    receivedAt: z.string().nullable(),
    ruleId: z.string().nullable(),
    outcome: z.enum(DELIVERY_OUTCOMES),
    instanceId: z.string().nullable(),
    businessKey: z.string().nullable(),
    reason: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("MailDelivery");

const list = createRoute({
  tags: ["mail deliveries"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "get",
  path: "/a/mail-deliveries",
  summary: "Every message read and what was done with it, newest first (Modeler)",
  request: { query: PageQuery.extend({ outcome: z.enum(DELIVERY_OUTCOMES).optional() }) },
  responses: {
    200: { description: "Deliveries", ...json(pageSchema(DeliverySchema, "MailDeliveryPage")) },
    ...errorResponses,
  },
});

const retry = createRoute({
  tags: ["mail deliveries"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "post",
  path: "/a/mail-deliveries/{id}/retry",
  summary: "Run a FAILED delivery through the rules again, from its message in the inbox (Modeler)",
  description:
    "The message is fetched again by its Message-ID. An instance that already carries the delivery's id " +
    "(variable mailDeliveryId) is linked rather than started twice. 409 when the delivery is not FAILED, has no " +
    "Message-ID, or its message is no longer in the inbox; 503 when the inbox cannot be read.",
  request: { params: IdParam },
  responses: {
    200: { description: "The delivery with its new outcome", ...json(DeliverySchema) },
    ...errorResponses,
  },
});

/** /a/mail-deliveries */
export function mailDeliveriesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listDeliveries({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(retry, async (c) => c.json(await retryDelivery({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  return r;
}
