import type { TenantCtx } from "../context";

export type DefinitionReadCtx = TenantCtx<"processRuntime">;

/** GET /a/definitions: every definition of the tenant, processes and cases (not paginated). */
export function listDefinitions({ ctx }: { ctx: DefinitionReadCtx; input?: undefined }) {
  return ctx.processRuntime.listDefinitions(ctx.tenant.id);
}

/** GET /a/definitions/{key}: one definition with its start form key. */
export function getDefinition({ ctx, input }: { ctx: DefinitionReadCtx; input: { key: string } }) {
  return ctx.processRuntime.getDefinition(ctx.tenant.id, input.key);
}
