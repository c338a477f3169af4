import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

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

// Signers by sealed secret: opening the secret and deriving the HMAC key once per endpoint, not once per attempt.
const signers = new Map<string, Webhook>();
const SIGNERS_KEPT = 1000;

/** The signer of an endpoint's sealed secret (`open` unseals it on first use). */
export function signerFor(sealed: string, open: (sealed: string) => string): Webhook {
  let w = signers.get(sealed);
  if (!w) {
    if (signers.size >= SIGNERS_KEPT) signers.clear();
    w = new Webhook(open(sealed));
    signers.set(sealed, w);
  }
  return w;
}

/**
 * The signers of an endpoint at `at`: its secret, and the one before the last rotation while its grace period lasts
 * (a receiver moves to the new secret in its own time: either signature verifies).
 */
export function signersOf(
  hook: { secretEnc: string; previousSecretEnc: string | null; previousSecretUntil: number | null },
  at: number,
  open: (sealed: string) => string,
): Webhook[] {
  const current = signerFor(hook.secretEnc, open);
  if (!hook.previousSecretEnc || hook.previousSecretUntil === null || at >= hook.previousSecretUntil) return [current];
  return [current, signerFor(hook.previousSecretEnc, open)];
}

/**
 * Standard Webhooks headers for one attempt: the id stays the event's for every retry, the signature is per attempt.
 * Several signers give several space-separated signatures in the one header, as the standard allows for rotation.
 */
export function signedHeaders(
  signers: Webhook[],
  eventId: string,
  at: number,
  payload: string,
): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "pms-webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at / 1000)),
    "webhook-signature": signers.map((s) => s.sign(eventId, new Date(at), payload)).join(" "),
  };
}
