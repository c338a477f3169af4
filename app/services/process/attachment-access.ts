import type { ProcessAccess } from "../attachments/process-access";
import { processRoleGrantsOfUser } from "../process-roles/queries";

/**
 * The attachment rules' view of processes: an instance's definition (process or case), its configured policy, and the
 * process roles a user holds there (roles of that process plus tenant-wide ones).
 */
export const runtimeProcessAccess: ProcessAccess = {
  definitionKeyOfInstance(ctx, instanceId) {
    const t = ctx.tenant.id;
    const row = ctx.platform.engineSqlite
      .query("SELECT definition_key AS k FROM process_instances WHERE id = ? AND tenant_id = ? UNION ALL SELECT definition_key FROM case_instances WHERE id = ? AND tenant_id = ?")
      .get(instanceId, t, instanceId, t) as { k: string } | null;
    return row?.k ?? null;
  },
  policyOf(ctx, definitionKey) {
    const cfg = ctx.platform.processRuntime.getDefinitionConfig(ctx.tenant.id, definitionKey);
    return (cfg.attachmentPolicy as ReturnType<ProcessAccess["policyOf"]>) ?? null;
  },
  processRolesOf(ctx, definitionKey, userId) {
    return processRoleGrantsOfUser(ctx.platform.platformDb, ctx.tenant.id, userId)
      .filter((g) => g.processKey === null || g.processKey === definitionKey)
      .map((g) => g.key);
  },
};
