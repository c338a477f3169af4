import type { Kernel } from "../runtime/kernel/kernel";
import { createWebhookOutbox } from "../runtime/kernel/webhook-outbox";
import type { Clock } from "../services/clock";
import { createWebhookDispatcher } from "../services/webhooks/dispatcher";
import type { WebhooksPort } from "../services/webhooks/port";
import { createSecretBox } from "../services/secret-box";
import { createWebhookSubscriptions } from "../services/webhooks/subscriptions";
import type { PlatformOrm } from "../../tenants/tenant-directory";
import type { Config } from "./config";

/**
 * Webhooks: the outbox hook on the engine database's runtime writes (only subscribed event types enter it), the port
 * operations use, and the dispatcher worker the platform starts and stops.
 */
export function wireWebhooks(opts: {
  config: Config;
  clock: Clock;
  kernel: Kernel;
  platformDb: PlatformOrm;
  log: (m: string) => void;
}) {
  const subscriptions = createWebhookSubscriptions(opts.platformDb);
  const outbox = createWebhookOutbox(opts.kernel);
  outbox.setFilter(subscriptions.wants);
  const port: WebhooksPort = {
    secrets: createSecretBox(opts.config.jwtSecret, "webhook-signing-secrets"),
    subscriptions,
    policy: { allowedPrivate: opts.config.webhooksAllowPrivate, maxRedirects: 5 },
  };
  const dispatcher = createWebhookDispatcher({
    platformDb: opts.platformDb,
    webhooks: port,
    outbox,
    now: () => opts.clock.now(),
    log: opts.log,
    concurrency: opts.config.webhookDelivery.concurrency,
    perEndpoint: opts.config.webhookDelivery.perEndpoint,
    timeoutMs: opts.config.webhookDelivery.timeoutMs,
  });
  return { port, outbox, dispatcher };
}
export type WebhooksWiring = ReturnType<typeof wireWebhooks>;
