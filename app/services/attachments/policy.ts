import { isAdmin, isManager, isModeler, type Actor, type TenantCtx } from "../context";
import { BadRequestError, ForbiddenError, NotFoundError } from "../errors";
import { DEFAULT_POLICY, type AttachmentPolicy } from "./process-access";

export type AttachmentsPolicyCtx = TenantCtx;

export const ENTITY_TYPES = ["PROCESS_INSTANCE", "KNOWLEDGE_BASE", "PROCESS_KNOWLEDGE", "GLOBAL"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/**
 * Where an upload comes from: AD_HOC is POST /a/attachments; PROCESS is a form submission or a step of the
 * process itself (the only way in under FORM_ONLY).
 */
export type UploadOrigin = "AD_HOC" | "PROCESS";

export interface Rights {
  canUpload: boolean;
  canPreview: boolean;
  canReplace: boolean;
  canDelete: boolean;
}

export function checkEntityType(v: unknown): EntityType {
  if (!ENTITY_TYPES.includes(v as EntityType)) {
    throw new BadRequestError(`entityType must be one of ${ENTITY_TYPES.join(", ")}`, [
      { field: "entityType", message: "unknown entity type" },
    ]);
  }
  return v as EntityType;
}

/** Administrators and the system pass every role check (not the mode and delete rules). */
const privileged = (a: Actor) => a.kind === "system" || isAdmin(a);

function processRights(ctx: AttachmentsPolicyCtx, instanceId: string, origin: UploadOrigin): Rights {
  const access = ctx.processAccess;
  const key = access.definitionKeyOfInstance(ctx, instanceId);
  if (key === null) throw new NotFoundError(`Instance ${instanceId} not found`);
  const policy: AttachmentPolicy = access.policyOf(ctx, key) ?? DEFAULT_POLICY;
  const a = ctx.actor;
  let roleIn: (list: string[]) => boolean;
  if (privileged(a)) roleIn = () => true;
  else {
    // An empty list means "any role in this definition"; no role at all reaches nothing.
    const held = a.userId ? access.processRolesOf(ctx, key, a.userId) : [];
    roleIn = (list) => held.length > 0 && (list.length === 0 || list.some((r) => held.includes(r)));
  }
  const modeAllows = policy.uploadMode === "AD_HOC" || (policy.uploadMode === "FORM_ONLY" && origin === "PROCESS");
  return {
    canUpload: modeAllows && roleIn(policy.uploadRoles),
    canPreview: roleIn(policy.previewRoles),
    canReplace: policy.uploadMode !== "DISABLED" && roleIn(policy.replaceRoles),
    canDelete: false,
  };
}

/**
 * The current actor's rights on an entity's attachments. PROCESS_INSTANCE follows the process's policy;
 * knowledge bases and process knowledge belong to Managers and Modelers (like their own routes); GLOBAL
 * attachments are read by every member and written by Managers and Modelers.
 */
export function rightsOn(
  ctx: AttachmentsPolicyCtx,
  entityType: EntityType,
  entityId: string,
  origin: UploadOrigin = "AD_HOC",
): Rights {
  if (entityType === "PROCESS_INSTANCE") return processRights(ctx, entityId, origin);
  const a = ctx.actor;
  const curator = privileged(a) || isManager(a) || isModeler(a);
  const reader = entityType === "GLOBAL" ? true : curator;
  return { canUpload: curator, canPreview: reader, canReplace: curator, canDelete: curator };
}

export function demand(right: boolean, what: string): void {
  if (!right) throw new ForbiddenError(`You may not ${what} on this entity's attachments`);
}
