import type { ProcessAccess } from "../attachments/process-access";
import { processRoleGrantsOfUser } from "../process-roles/queries";
import { kindOfInstance } from "./kind-of";
import { visibilityOf } from "./visibility";

/**
 * The attachment rules' view of processes: an instance's definition (process or case), its configured policy, and the
 * process roles a user holds there (roles of that process plus tenant-wide ones). An instance the caller takes no
 * part in is unknown to them (404, never 403), exactly as on the instance routes.
 */
export const runtimeProcessAccess: ProcessAccess = {
  definitionKeyOfInstance(ctx, instanceId) {
    const t = ctx.tenant.id;
    const v = visibilityOf(ctx);
    try {
      if (kindOfInstance(ctx, instanceId) === "CMMN") return ctx.caseRuntime.getCase(t, instanceId, v).definitionKey;
      return ctx.processRuntime.getInstance(t, instanceId, v).definitionKey;
    } catch {
      return null;
    }
  },
  policyOf(ctx, definitionKey) {
    const cfg = ctx.processRuntime.getDefinitionConfig(ctx.tenant.id, definitionKey);
    return (cfg.attachmentPolicy as ReturnType<ProcessAccess["policyOf"]>) ?? null;
  },
  processRolesOf(ctx, definitionKey, userId) {
    return processRoleGrantsOfUser(ctx.platformDb, ctx.tenant.id, userId)
      .filter((g) => g.processKey === null || g.processKey === definitionKey)
      .map((g) => g.key);
  },
};
