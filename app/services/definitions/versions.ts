import type { TenantCtx } from "../context";

export type DefinitionDesignCtx = TenantCtx<"processRuntime">;
type KeyInput = { ctx: DefinitionDesignCtx; input: { key: string } };
type VersionInput = { ctx: DefinitionDesignCtx; input: { key: string; definitionId: string } };

/** GET /a/definitions/{key}/versions (Modeler): version history, newest first. */
export function definitionVersions({ ctx, input }: KeyInput) {
  return ctx.processRuntime.definitionVersions(ctx.tenant.id, input.key);
}

/** POST /a/definitions/{key}/versions/{definitionId}/publish (Modeler): new instances start this version. */
export async function publishDefinition({ ctx, input }: VersionInput) {
  return ctx.processRuntime.publishDefinition(ctx.tenant.id, input.key, input.definitionId);
}

/** GET /a/definitions/{key}/versions/{definitionId}/xml (Modeler): the file as deployed. */
export function definitionXml({ ctx, input }: VersionInput): string {
  return ctx.processRuntime.definitionXml(ctx.tenant.id, input.key, input.definitionId);
}

/** PUT /a/definitions/{key}/suspend (Modeler): no new instance starts (BPMN only). */
export async function suspendDefinition({ ctx, input }: KeyInput) {
  return ctx.processRuntime.suspendDefinition(ctx.tenant.id, input.key);
}

/** PUT /a/definitions/{key}/activate (Modeler) */
export async function activateDefinition({ ctx, input }: KeyInput) {
  return ctx.processRuntime.activateDefinition(ctx.tenant.id, input.key);
}

/** PATCH /a/definitions/{key}/toggle (Modeler): shows or hides the definition in the tenant catalog. */
export async function toggleDefinition({ ctx, input }: KeyInput) {
  return ctx.processRuntime.toggleDefinition(ctx.tenant.id, input.key);
}
