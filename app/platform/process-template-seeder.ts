import { eq } from "drizzle-orm";
import { processTemplates } from "../../db/platform/schema";
import { subscribe } from "../services/process-templates/replicate";
import type { PlatformPorts } from "../services/context";
import type { Clock } from "../services/clock";

/**
 * Provisioning seeder: subscribes the new tenant to every enabled global process template, which deploys each as the
 * tenant's own definition (app/services/process-templates/replicate.ts, the one replication). A retried provisioning
 * finds its subscriptions up to date and deploys nothing twice.
 */
export function processTemplateSeeder(p: {
  platformDb: PlatformPorts["platformDb"];
  clock: Clock;
  ports: PlatformPorts;
}) {
  return async (tenantId: string) => {
    const templates = p.platformDb.select().from(processTemplates).where(eq(processTemplates.enabled, true)).all();
    const ctx = { ...p.ports, actor: null, channel: "SYSTEM" as const, requestId: `seed-${tenantId}`, clock: p.clock };
    for (const t of templates) await subscribe(ctx, tenantId, t);
  };
}
