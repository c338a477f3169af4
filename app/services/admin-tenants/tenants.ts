import { count, like, or, asc, eq, type SQL } from "drizzle-orm";
import { tenants } from "../../../db/platform/schema";
import type { TenantRecord } from "../../../tenants/tenant-directory";
import type { Platform } from "../../platform/platform";
import { BadRequestError, ConflictError, NotFoundError } from "../errors";
import { pageOf, pageParams } from "../../../db/pagination";

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A tenant as SA sees it; `degraded` flags an ACTIVE tenant whose schema migration failed in this process. */
export function tenantView(t: TenantRecord, p: Platform) {
  const degradedBy = p.tenantDbs.degradedReason(t.id);
  return {
    id: t.id,
    slug: t.slug,
    name: t.name,
    status: t.status,
    degraded: degradedBy !== null,
    errorMessage: (degradedBy ? `schema migration failed: ${degradedBy}` : t.errorMessage) ?? undefined,
  };
}

export function getTenant(p: Platform, id: string): TenantRecord {
  const t = p.tenants.get(id);
  if (!t) throw new NotFoundError(`Tenant ${id} not found`);
  return t;
}

/** GET /admin/tenants */
export function listTenants(p: Platform, q: { page?: number; size?: number; search?: string }) {
  const { page, size, offset } = pageParams(q.page, q.size, 20, 100);
  let where: SQL | undefined;
  if (q.search?.trim()) {
    const term = `%${q.search.trim().toLowerCase()}%`;
    where = or(like(tenants.slug, term), like(tenants.name, term));
  }
  const rows = p.platformDb
    .select()
    .from(tenants)
    .where(where)
    .orderBy(asc(tenants.slug))
    .limit(size)
    .offset(offset)
    .all();
  const total = p.platformDb.select({ n: count() }).from(tenants).where(where).get()?.n ?? 0;
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
        p,
      ),
    ),
    total,
    page,
    size,
  );
}

/** POST /admin/tenants: answers CREATING at once; provisioning runs in the background. */
export function createTenant(p: Platform, input: { slug: string; name: string }) {
  const slug = input.slug.trim().toLowerCase();
  if (!SLUG_PATTERN.test(slug)) {
    throw new BadRequestError("Invalid slug", [
      { field: "slug", message: "lowercase letters, digits and hyphens, 1 to 63 characters" },
    ]);
  }
  if (p.tenants.bySlug(slug)) throw new ConflictError(`Slug ${slug} is already taken`);
  const now = new Date(p.clock.now()).toISOString();
  const id = crypto.randomUUID();
  p.platformDb
    .insert(tenants)
    .values({ id, slug, name: input.name, status: "CREATING", createdAt: now, updatedAt: now })
    .run();
  const rec = p.tenants.refresh(id)!;
  p.provisionInBackground(id);
  return tenantView(rec, p);
}

/** PUT /admin/tenants/{id}: the name may change; the slug is fixed because tokens and MCP clients carry it. */
export function updateTenant(p: Platform, id: string, input: { name?: string; slug?: string }) {
  const t = getTenant(p, id);
  if (input.slug !== undefined && input.slug !== t.slug) {
    throw new BadRequestError("The slug of a tenant cannot change", [{ field: "slug", message: "immutable" }]);
  }
  if (input.name !== undefined) {
    p.platformDb
      .update(tenants)
      .set({ name: input.name, updatedAt: new Date(p.clock.now()).toISOString() })
      .where(eq(tenants.id, id))
      .run();
  }
  return tenantView(p.tenants.refresh(id)!, p);
}

/** PATCH /admin/tenants/{id}/suspend: only an ACTIVE tenant can be suspended. */
export function suspendTenant(p: Platform, id: string) {
  const t = getTenant(p, id);
  if (t.status !== "ACTIVE")
    throw new ConflictError(`Tenant ${t.slug} is ${t.status}; only an ACTIVE tenant can be suspended`);
  return tenantView(p.tenants.setStatus(id, "SUSPENDED")!, p);
}

/** PATCH /admin/tenants/{id}/reactivate: only a SUSPENDED tenant can be reactivated. */
export function reactivateTenant(p: Platform, id: string) {
  const t = getTenant(p, id);
  if (t.status !== "SUSPENDED")
    throw new ConflictError(`Tenant ${t.slug} is ${t.status}; only a SUSPENDED tenant can be reactivated`);
  return tenantView(p.tenants.setStatus(id, "ACTIVE")!, p);
}
