import { z } from "@hono/zod-openapi";
import { pageSchema, PageQuery } from "../../schemas";
import { tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin } from "../../middleware/roles";
import { WEBHOOK_EVENT_TYPES } from "../../../services/webhooks/validate";
import { MAX_ROTATION_GRACE_SECONDS } from "../../../services/webhooks/manage";

export const common = { tags: ["webhooks"], security: tenantSecurity, middleware: requireAdmin };

export const WebhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    failingSince: z.string().nullable(),
    previousSecretValidUntil: z.string().nullable().openapi({
      description: "Until when the secret replaced by the last rotation still signs beside the current one",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Webhook");
export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z
    .string()
    .openapi({ description: "Standard Webhooks signing secret (whsec_…), shown only in this response" }),
}).openapi("WebhookWithSecret");

// Events are checked by the service so the 400 lists the valid types whatever the client sent.
const eventsField = z.any().openapi({ type: "array", items: { type: "string", enum: [...WEBHOOK_EVENT_TYPES] } });
export const CreateWebhookBody = z
  .object({
    url: z.string().min(1),
    events: eventsField,
    description: z.string().max(1000).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .openapi("CreateWebhookRequest");
export const RotateSecretBody = z
  .object({
    graceSeconds: z.number().int().min(0).max(MAX_ROTATION_GRACE_SECONDS).optional().openapi({
      description: "How long the replaced secret keeps signing beside the new one (default 86400; 0: stop now)",
    }),
  })
  .openapi("RotateWebhookSecretRequest");
export const UpdateWebhookBody = z
  .object({
    url: z.string().min(1).optional(),
    events: eventsField.optional(),
    description: z.string().max(1000).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .openapi("UpdateWebhookRequest");

export const DeliverySchema = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(["PENDING", "SUCCEEDED", "FAILED"]),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("WebhookDelivery");
export const DeliveryDetailSchema = DeliverySchema.extend({
  payload: z.string(),
  attemptLog: z.array(
    z.object({
      attemptedAt: z.string(),
      statusCode: z.number().int().nullable(),
      latencyMs: z.number().int(),
      responseBody: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
}).openapi("WebhookDeliveryDetail");
export const DeliveryPage = pageSchema(DeliverySchema, "WebhookDeliveryPage");
export const DeliveriesQuery = PageQuery.extend({
  status: z
    .string()
    .optional()
    .openapi({ enum: ["PENDING", "SUCCEEDED", "FAILED"] }),
});
export const DeliveryParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
  deliveryId: z.string().openapi({ param: { name: "deliveryId", in: "path" } }),
});
