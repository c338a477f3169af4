import { tenantDrops } from "../../../db/platform/schema";
import type { PlatformCtx } from "../context";
import { BadRequestError, ConflictError } from "../errors";
import { dropProgress } from "./drop-job";
import { type AdminTenantsCtx, findTenant, getTenant } from "./tenants";

/** End of life: the tenant directory, the platform tables (the drop job's row) and the tenant's storage. */
export type EndOfLifeCtx = AdminTenantsCtx & PlatformCtx<"tenantStorage">;

const tenantWithDrop = (ctx: AdminTenantsCtx, id: string) => getTenant({ ctx, input: { id } });

/**
 * PATCH /admin/tenants/{id}/deactivate: SUSPENDED → DEACTIVATED. Its data stays, its requests keep answering 403 (as
 * while suspended), it can no longer be reactivated, and its database handle is closed; it may now be dropped.
 */
export function deactivateTenant({ ctx, input: { id } }: { ctx: EndOfLifeCtx; input: { id: string } }) {
  const t = findTenant(ctx, id);
  if (t.status !== "SUSPENDED")
    throw new ConflictError(`Tenant ${t.slug} is ${t.status}; only a SUSPENDED tenant can be deactivated`);
  ctx.tenants.setStatus(id, "DEACTIVATED");
  ctx.tenantStorage.closeHandle(id);
  return tenantWithDrop(ctx, id);
}

/**
 * POST /admin/tenants/{id}/drop with `{confirm: "<slug>"}`: records the drop job and starts it; answers at once with
 * its progress. Asking again while it runs answers the same progress (the job is not started twice).
 */
export function dropTenant({ ctx, input }: { ctx: EndOfLifeCtx; input: { id: string; confirm: string } }) {
  const t = findTenant(ctx, input.id);
  if (t.status !== "DEACTIVATED")
    throw new ConflictError(`Tenant ${t.slug} is ${t.status}; only a DEACTIVATED tenant can be dropped`);
  if (input.confirm !== t.slug) {
    throw new BadRequestError("The confirmation does not match", [
      { field: "confirm", message: `must be the tenant's slug, "${t.slug}"` },
    ]);
  }
  const now = new Date(ctx.clock.now()).toISOString();
  ctx.platformDb
    .insert(tenantDrops)
    .values({
      tenantId: t.id,
      requestedBy: ctx.actor?.userId ?? null,
      requestedAt: now,
      phase: "ENGINE",
      updatedAt: now,
    })
    .onConflictDoNothing()
    .run();
  ctx.tenantStorage.startDrop(t.id);
  return tenantWithDrop(ctx, t.id);
}

/**
 * GET /admin/tenants/{id}/export: an online snapshot of the tenant's own database file and its stored files, as a
 * tar (isolation rule 7: its instances, tasks, jobs and history live in the shared engine database and are not in it).
 */
export function exportTenant({ ctx, input: { id } }: { ctx: EndOfLifeCtx; input: { id: string } }) {
  const t = findTenant(ctx, id);
  if (!["ACTIVE", "SUSPENDED", "DEACTIVATED"].includes(t.status))
    throw new ConflictError(`Tenant ${t.slug} is ${t.status}; it has no data to export`);
  if (dropProgress(ctx, id)) throw new ConflictError(`Tenant ${t.slug} is being dropped; it has no data to export`);
  const stamp = new Date(ctx.clock.now()).toISOString().replace(/[:.]/g, "-");
  return {
    fileName: `tenant-${t.slug}-${stamp}.tar`,
    stream: ctx.tenantStorage.exportArchive(t, new Date(ctx.clock.now()).toISOString()),
  };
}
