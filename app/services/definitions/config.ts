import type { AttachmentPolicy, DefinitionConfig, McpPolicy } from "../../runtime/bpmn";
import {
  DEFAULT_POLICY,
  UPLOAD_MODES,
  type AttachmentPolicy as EffectivePolicy,
  type UploadMode,
} from "../attachments/process-access";
import type { TenantCtx } from "../context";

export type DefinitionConfigCtx = TenantCtx<"processRuntime">;
/** The configuration as the config routes answer it: the attachment policy's mode is one of the known modes. */
export type DefinitionConfigView = Omit<DefinitionConfig, "attachmentPolicy"> & {
  attachmentPolicy: EffectivePolicy | null;
};

// The config route admits only the known modes; the stored text is narrowed here rather than cast.
const knownMode = (mode: string | undefined): UploadMode =>
  UPLOAD_MODES.find((m) => m === mode) ?? DEFAULT_POLICY.uploadMode;

const viewOf = (saved: DefinitionConfig): DefinitionConfigView => {
  const policy = saved.attachmentPolicy;
  return { ...saved, attachmentPolicy: policy && { ...policy, uploadMode: knownMode(policy.uploadMode) } };
};

/** GET /a/definitions/{key}/config (Modeler): what PUT stored, null where nothing was set (404 for an unknown key). */
export function getDefinitionConfig({
  ctx,
  input,
}: {
  ctx: DefinitionConfigCtx;
  input: { key: string };
}): DefinitionConfigView {
  return viewOf(ctx.processRuntime.getDefinitionConfig(ctx.tenant.id, input.key));
}

/** PUT /a/definitions/{key}/config (Modeler): the fields given replace the stored ones, the others stay. */
export async function putDefinitionConfig({
  ctx,
  input,
}: {
  ctx: DefinitionConfigCtx;
  input: { key: string; config: Partial<DefinitionConfig> };
}): Promise<DefinitionConfigView> {
  return viewOf(await ctx.processRuntime.putDefinitionConfig(ctx.tenant.id, input.key, input.config));
}

/** GET /a/definitions/{key}/attachment-policy (Modeler): the configured policy, AD_HOC for every missing field. */
export function effectiveAttachmentPolicy({
  ctx,
  input,
}: {
  ctx: DefinitionConfigCtx;
  input: { key: string };
}): EffectivePolicy {
  const configured: Partial<AttachmentPolicy> =
    ctx.processRuntime.getDefinitionConfig(ctx.tenant.id, input.key).attachmentPolicy ?? {};
  return { ...DEFAULT_POLICY, ...configured, uploadMode: knownMode(configured.uploadMode) };
}

/** GET /a/definitions/{key}/mcp-policy (Modeler): what an MCP assistant may do in the process. */
export function mcpPolicyOf({ ctx, input }: { ctx: DefinitionConfigCtx; input: { key: string } }): {
  key: string;
  mcpPolicy: McpPolicy;
  canStart: boolean;
  canComplete: boolean;
} {
  const p = ctx.processRuntime.getDefinitionConfig(ctx.tenant.id, input.key).mcpPolicy;
  return { key: input.key, mcpPolicy: p, canStart: p !== "NONE", canComplete: p === "START_AND_COMPLETE" };
}
