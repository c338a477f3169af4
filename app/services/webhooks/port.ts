import type { OutboundPolicy } from "../../outbound";
import type { SecretBox } from "../secret-box";
import type { WebhookSubscriptions } from "./subscriptions";

/** What webhook operations and the dispatcher need beyond the platform database. */
export interface WebhooksPort {
  /** Seals the signing secrets (key derived from the service secret). */
  secrets: SecretBox;
  subscriptions: WebhookSubscriptions;
  /** The SSRF policy of every target URL and redirect (internal hosts only when WEBHOOKS_ALLOW_PRIVATE says so). */
  policy: OutboundPolicy;
}
