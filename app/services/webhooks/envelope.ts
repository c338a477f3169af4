import { Webhook } from "standardwebhooks";
import { randomBytes } from "node:crypto";

/** A new signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes). */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/** The body every subscriber receives: event id, type, time, tenant slug, and the resource as the REST API shows it. */
export function envelope(e: { eventId: string; type: string; at: number; tenantSlug: string; data: unknown }): string {
  return JSON.stringify({
    id: e.eventId,
    type: e.type,
    timestamp: new Date(e.at).toISOString(),
    tenant: e.tenantSlug,
    data: e.data,
  });
}

/** Standard Webhooks headers for one attempt: the id stays the event's for every retry, the signature is per attempt. */
export function signedHeaders(secret: string, eventId: string, at: number, payload: string): Record<string, string> {
  const when = new Date(at);
  return {
    "content-type": "application/json",
    "user-agent": "pms-webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at / 1000)),
    "webhook-signature": new Webhook(secret).sign(eventId, when, payload),
  };
}
