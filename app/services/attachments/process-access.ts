import type { TenantCtx } from "../context";

export type ProcessAccessCtx = TenantCtx;

export const UPLOAD_MODES = ["AD_HOC", "FORM_ONLY", "DISABLED"] as const;
export type UploadMode = (typeof UPLOAD_MODES)[number];

/** A process's attachment policy (PUT /a/definitions/{key}/config, field attachmentPolicy). */
export interface AttachmentPolicy {
  uploadMode: UploadMode;
  uploadRoles: string[];
  previewRoles: string[];
  replaceRoles: string[];
}

/** What a process with no configured policy behaves as. */
export const DEFAULT_POLICY: AttachmentPolicy = {
  uploadMode: "AD_HOC",
  uploadRoles: [],
  previewRoles: [],
  replaceRoles: [],
};

/**
 * What the attachment rules need to know about processes, answered by the process side (definitions, instances,
 * process roles) of the calling tenant. A port of the ctx (`ctx.processAccess`), given at the platform's assembly.
 */
export interface ProcessAccess {
  /** Key of the definition the instance belongs to, or null when the tenant has no such instance. */
  definitionKeyOfInstance(ctx: ProcessAccessCtx, instanceId: string): string | null;
  /** The configured attachment policy of the definition, or null when none was set (AD_HOC applies). */
  policyOf(ctx: ProcessAccessCtx, definitionKey: string): AttachmentPolicy | null;
  /** Keys of the process roles `userId` holds in the definition (empty: no role in that process). */
  processRolesOf(ctx: ProcessAccessCtx, definitionKey: string, userId: string): string[];
}
