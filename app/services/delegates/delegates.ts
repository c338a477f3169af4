import type { TenantCtx } from "../context";

export type DelegatesCtx = TenantCtx<"processRuntime">;

/** GET /a/delegates (Modeler): service-task delegates with their declared parameters; the class is the name. */
export function listDelegates({ ctx }: { ctx: DelegatesCtx; input?: undefined }) {
  return ctx.processRuntime.listDelegates().map((d) => ({ ...d, className: d.name }));
}

/** GET /a/delegates/active (Admin): the built-in set is the only archive. */
export function activeDelegateArchives({ ctx }: { ctx: DelegatesCtx; input?: undefined }) {
  return [{ name: "builtin", active: true, delegates: ctx.processRuntime.listDelegates().map((d) => d.name) }];
}
