import { createHmac, randomBytes } from "node:crypto";

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

/** Signs attempts for one endpoint: `v1,` + base64 HMAC-SHA256 of `id.timestamp.payload` (Standard Webhooks). */
export interface Signer {
  sign(eventId: string, timestampSeconds: number, payload: string): string;
}

const SECRET_PREFIX = "whsec_";

/** The Standard Webhooks signer of a `whsec_…` secret, on node:crypto (the reference library hashes in JavaScript). */
export function signerOf(secret: string): Signer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  if (!key.length) throw new Error("Webhook signing secret is empty");
  return {
    sign: (eventId, timestampSeconds, payload) =>
      `v1,${createHmac("sha256", key).update(`${eventId}.${timestampSeconds}.${payload}`).digest("base64")}`,
  };
}

// Signers by sealed secret: opening the secret and deriving the HMAC key once per endpoint, not once per attempt.
const signers = new Map<string, Signer>();
const SIGNERS_KEPT = 1000;

/** The signer of an endpoint's sealed secret (`open` unseals it on first use). */
export function signerFor(sealed: string, open: (sealed: string) => string): Signer {
  let w = signers.get(sealed);
  if (!w) {
    if (signers.size >= SIGNERS_KEPT) signers.clear();
    w = signerOf(open(sealed));
    signers.set(sealed, w);
  }
  return w;
}

/** Standard Webhooks headers for one attempt: the id stays the event's for every retry, the signature is per attempt. */
export function signedHeaders(signer: Signer, eventId: string, at: number, payload: string): Record<string, string> {
  const seconds = Math.floor(at / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "pms-webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": signer.sign(eventId, seconds, payload),
  };
}
