import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { broadcastSignal, correlateMessage } from "../../../services/process-events";

// Like POST /a/instances: any member of the tenant, and API keys with the write scope (how integrations call them).
const common = { tags: ["instances"], security: tenantSecurity, middleware: requireAuth };
const Variables = z.record(z.string(), z.unknown());

const MessageBody = z
  .object({
    messageName: z.string().min(1),
    businessKey: z.string().min(1).nullable().optional(),
    correlationKeys: Variables.optional().openapi({ description: "instance variables the instance must hold" }),
    variables: Variables.optional(),
    all: z.boolean().optional().openapi({ description: "deliver to every match instead of answering 409" }),
  })
  .openapi("MessageRequest", {
    example: { messageName: "paymentReceived", businessKey: "ORDER-42", variables: { amount: 120.5 } },
  });
const MessageAnswer = z
  .object({
    messageName: z.string(),
    correlated: z.array(z.object({ instanceId: z.string(), started: z.boolean() })),
  })
  .openapi("MessageCorrelated", {
    example: { messageName: "paymentReceived", correlated: [{ instanceId: "0193f1c2-...", started: false }] },
  });
const SignalBody = z
  .object({ signalName: z.string().min(1), variables: Variables.optional() })
  .openapi("SignalRequest", { example: { signalName: "stockUpdated", variables: { sku: "A-1" } } });
const SignalAnswer = z
  .object({ signalName: z.string(), triggered: z.number().int() })
  .openapi("SignalBroadcast", { example: { signalName: "stockUpdated", triggered: 3 } });

const message = createRoute({
  ...common,
  method: "post",
  path: "/a/messages",
  summary: "Correlate a message to the waiting catch it matches, or start a process by its message start event",
  description:
    "Matches by business key and correlation keys (instance variables). 404 when nothing waits for it; 409 when more than one matches and `all` is not set.",
  request: { body: { ...json(MessageBody), required: true } },
  responses: { 200: { description: "Delivered", ...json(MessageAnswer) }, ...errorResponses },
});
const signal = createRoute({
  ...common,
  method: "post",
  path: "/a/signals",
  summary: "Broadcast a signal to the tenant's waiting signal catches and signal start events",
  request: { body: { ...json(SignalBody), required: true } },
  responses: { 200: { description: "Broadcast (triggered may be 0)", ...json(SignalAnswer) }, ...errorResponses },
});

/** /a/messages and /a/signals: the events integrations deliver to processes. */
export function processEventsRouter() {
  const r = createRouter();
  r.openapi(message, async (c) =>
    c.json(await correlateMessage({ ctx: c.get("ctx"), input: c.req.valid("json") }), 200),
  );
  r.openapi(signal, async (c) => c.json(await broadcastSignal({ ctx: c.get("ctx"), input: c.req.valid("json") }), 200));
  return r;
}
