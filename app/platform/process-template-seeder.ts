import { eq } from "drizzle-orm";
import { processTemplates } from "../../db/platform/schema";
import type { Platform } from "./platform";

/**
 * Provisioning seeder: deploys every enabled global process template into the new tenant, each as the tenant's own
 * definition. A key the tenant already holds is skipped, so a retried provisioning does not deploy twice.
 */
export function processTemplateSeeder(p: Platform) {
  return async (tenantId: string) => {
    const templates = p.platformDb.select().from(processTemplates).where(eq(processTemplates.enabled, true)).all();
    for (const t of templates) {
      if (p.processRuntime.hasDefinitionKey(tenantId, t.key)) continue;
      await p.processRuntime.deploy(tenantId, t.xml, { fileName: `${t.key}.bpmn`, createdBy: null });
    }
  };
}
