import { webhooks } from "../../../db/platform/schema";
import type { PlatformOrm } from "../../../tenants/tenant-directory";

/**
 * Which event types each tenant's enabled endpoints subscribe to, kept in memory: the runtime asks it inside every
 * engine write (only subscribed events enter the outbox), so it must not touch a database. Every webhook write
 * refreshes it.
 */
export function createWebhookSubscriptions(platformDb: PlatformOrm) {
  let byTenant = new Map<string, Set<string>>();
  const api = {
    refresh() {
      const next = new Map<string, Set<string>>();
      for (const w of platformDb.select().from(webhooks).all()) {
        if (!w.enabled) continue;
        let set = next.get(w.tenantId);
        if (!set) next.set(w.tenantId, (set = new Set()));
        for (const t of JSON.parse(w.events) as string[]) set.add(t);
      }
      byTenant = next;
    },
    wants: (tenantId: string, type: string) => byTenant.get(tenantId)?.has(type) ?? false,
  };
  api.refresh();
  return api;
}
export type WebhookSubscriptions = ReturnType<typeof createWebhookSubscriptions>;
