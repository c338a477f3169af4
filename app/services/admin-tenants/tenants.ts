import { count, like, or, asc, eq, type SQL } from "drizzle-orm";
import { tenants } from "../../../db/platform/schema";
import type { TenantRecord } from "../../../tenants/tenant-directory";
import { normalizeSlug } from "../../../tenants/slug";
import type { PlatformCtx } from "../context";
import { BadRequestError, ConflictError, NotFoundError } from "../errors";
import { pageOf, pageParams } from "../../../db/pagination";
import { dropProgress } from "./drop-job";

/** Tenant administration: the platform tables, the tenant directory, provisioning and the degraded flags. */
export type AdminTenantsCtx = PlatformCtx<"platformDb" | "tenants" | "provisionInBackground" | "isDegraded">;

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A tenant as SA sees it; `degraded` flags an ACTIVE tenant whose schema migration failed in this process. */
export function tenantView(t: TenantRecord, ctx: Pick<AdminTenantsCtx, "isDegraded">) {
  const degradedBy = ctx.isDegraded(t.id);
  return {
    id: t.id,
    slug: t.slug,
    name: t.name,
    status: t.status,
    degraded: degradedBy !== null,
    errorMessage: (degradedBy ? `schema migration failed: ${degradedBy}` : t.errorMessage) ?? undefined,
  };
}

/** The tenant, or 404 (also used by the other platform-administration operations). */
export function findTenant(ctx: PlatformCtx<"tenants">, id: string): TenantRecord {
  const t = ctx.tenants.get(id);
  if (!t) throw new NotFoundError(`Tenant ${id} not found`);
  return t;
}

/** GET /admin/tenants */
export function listTenants({
  ctx,
  input: q,
}: {
  ctx: AdminTenantsCtx;
  input: { page?: number; size?: number; search?: string };
}) {
  const { page, size, offset } = pageParams(q.page, q.size, 20, 100);
  let where: SQL | undefined;
  if (q.search?.trim()) {
    const term = `%${q.search.trim().toLowerCase()}%`;
    where = or(like(tenants.slug, term), like(tenants.name, term));
  }
  const rows = ctx.platformDb
    .select()
    .from(tenants)
    .where(where)
    .orderBy(asc(tenants.slug))
    .limit(size)
    .offset(offset)
    .all();
  const total = ctx.platformDb.select({ n: count() }).from(tenants).where(where).get()?.n ?? 0;
  return pageOf(
    rows.map((r) =>
      tenantView(
        {
          id: r.id,
          slug: r.slug,
          name: r.name,
          status: r.status as TenantRecord["status"],
          errorMessage: r.errorMessage,
        },
        ctx,
      ),
    ),
    total,
    page,
    size,
  );
}

/** POST /admin/tenants: answers CREATING at once; provisioning runs in the background. */
export function createTenant({ ctx, input }: { ctx: AdminTenantsCtx; input: { slug: string; name: string } }) {
  const slug = normalizeSlug(input.slug);
  if (!SLUG_PATTERN.test(slug)) {
    throw new BadRequestError("Invalid slug", [
      { field: "slug", message: "lowercase letters, digits and hyphens, 1 to 63 characters" },
    ]);
  }
  if (ctx.tenants.bySlug(slug)) throw new ConflictError(`Slug ${slug} is already taken`);
  const now = new Date(ctx.clock.now()).toISOString();
  const id = crypto.randomUUID();
  ctx.platformDb
    .insert(tenants)
    .values({ id, slug, name: input.name, status: "CREATING", createdAt: now, updatedAt: now })
    .run();
  const rec = ctx.tenants.refresh(id)!;
  ctx.provisionInBackground(id);
  return tenantView(rec, ctx);
}

/** PUT /admin/tenants/{id}: the name may change; the slug is fixed because tokens and MCP clients carry it. */
/** GET /admin/tenants/{id}: with the progress of its drop once one was requested. */
export function getTenant({ ctx, input }: { ctx: AdminTenantsCtx; input: { id: string } }) {
  const view = tenantView(findTenant(ctx, input.id), ctx);
  const drop = dropProgress(ctx, input.id);
  return drop ? { ...view, drop } : view;
}

export function updateTenant({
  ctx,
  input: { id, ...input },
}: {
  ctx: AdminTenantsCtx;
  input: { id: string; name?: string; slug?: string };
}) {
  const t = findTenant(ctx, id);
  if (input.slug !== undefined && input.slug !== t.slug) {
    throw new BadRequestError("The slug of a tenant cannot change", [{ field: "slug", message: "immutable" }]);
  }
  if (input.name !== undefined) {
    ctx.platformDb
      .update(tenants)
      .set({ name: input.name, updatedAt: new Date(ctx.clock.now()).toISOString() })
      .where(eq(tenants.id, id))
      .run();
  }
  return tenantView(ctx.tenants.refresh(id)!, ctx);
}

/** PATCH /admin/tenants/{id}/suspend: only an ACTIVE tenant can be suspended. */
export function suspendTenant({ ctx, input: { id } }: { ctx: AdminTenantsCtx; input: { id: string } }) {
  const t = findTenant(ctx, id);
  if (t.status !== "ACTIVE")
    throw new ConflictError(`Tenant ${t.slug} is ${t.status}; only an ACTIVE tenant can be suspended`);
  return tenantView(ctx.tenants.setStatus(id, "SUSPENDED")!, ctx);
}

/** PATCH /admin/tenants/{id}/reactivate: only a SUSPENDED tenant can be reactivated. */
export function reactivateTenant({ ctx, input: { id } }: { ctx: AdminTenantsCtx; input: { id: string } }) {
  const t = findTenant(ctx, id);
  if (t.status !== "SUSPENDED")
    throw new ConflictError(`Tenant ${t.slug} is ${t.status}; only a SUSPENDED tenant can be reactivated`);
  return tenantView(ctx.tenants.setStatus(id, "ACTIVE")!, ctx);
}
