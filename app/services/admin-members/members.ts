import { and, asc, eq } from "drizzle-orm";
import { memberships, users } from "../../../db/platform/schema";
import { ConflictError, NotFoundError } from "../errors";
import { findTenant } from "../admin-tenants/tenants";
import { findUser } from "../admin-users/users";
import type { PlatformCtx, TenantRole } from "../context";

/** Memberships live in the platform tables; the tenant directory proves the tenant exists. */
export type AdminMembersCtx = PlatformCtx<"platformDb" | "tenants" | "revocations">;

type MembershipRow = typeof memberships.$inferSelect;

/** The column holds only tenant roles (the routes validate them); the type says so once, here. */
const roleOf = (role: string) => role as TenantRole;

export function membershipView(m: MembershipRow) {
  return { id: m.id, userId: m.userId, tenantId: m.tenantId, role: roleOf(m.role) };
}

/** Members of a tenant with their user's name and e-mail. */
export function listMembers({
  ctx,
  input: { tenantId },
}: {
  ctx: PlatformCtx<"platformDb" | "tenants">;
  input: { tenantId: string };
}) {
  findTenant(ctx, tenantId);
  return ctx.platformDb
    .select({
      id: memberships.id,
      userId: memberships.userId,
      tenantId: memberships.tenantId,
      role: memberships.role,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      active: users.active,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.tenantId, tenantId))
    .orderBy(asc(users.email))
    .all()
    .map((m) => ({ ...m, role: roleOf(m.role) }));
}

/** POST /admin/tenants/{id}/members: one membership per user and tenant (409 otherwise). */
export function addMember({
  ctx,
  input: { tenantId, ...input },
}: {
  ctx: AdminMembersCtx;
  input: { tenantId: string; userId: string; role: TenantRole };
}) {
  findTenant(ctx, tenantId);
  findUser(ctx, input.userId);
  const existing = ctx.platformDb
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, input.userId)))
    .get();
  if (existing) throw new ConflictError("The user is already a member of this tenant; change the role instead");
  const row: MembershipRow = {
    id: crypto.randomUUID(),
    userId: input.userId,
    tenantId,
    role: input.role,
    createdAt: new Date(ctx.clock.now()).toISOString(),
  };
  ctx.platformDb.insert(memberships).values(row).run();
  return membershipView(row);
}

function getMembership(ctx: AdminMembersCtx, tenantId: string, membershipId: string): MembershipRow {
  findTenant(ctx, tenantId);
  const m = ctx.platformDb
    .select()
    .from(memberships)
    .where(and(eq(memberships.id, membershipId), eq(memberships.tenantId, tenantId)))
    .get();
  if (!m) throw new NotFoundError(`Membership ${membershipId} not found in this tenant`);
  return m;
}

/** DELETE /admin/tenants/{id}/members/{membershipId} */
export function removeMember({
  ctx,
  input: { tenantId, membershipId },
}: {
  ctx: AdminMembersCtx;
  input: { tenantId: string; membershipId: string };
}) {
  const m = getMembership(ctx, tenantId, membershipId);
  ctx.platformDb.delete(memberships).where(eq(memberships.id, membershipId)).run();
  ctx.revocations.userChanged(m.userId);
}

/** PATCH /admin/tenants/{id}/members/{membershipId}/role */
export function changeMemberRole({
  ctx,
  input: { tenantId, membershipId, role },
}: {
  ctx: AdminMembersCtx;
  input: { tenantId: string; membershipId: string; role: TenantRole };
}) {
  const m = getMembership(ctx, tenantId, membershipId);
  ctx.platformDb.update(memberships).set({ role }).where(eq(memberships.id, membershipId)).run();
  ctx.revocations.userChanged(m.userId);
  return membershipView({ ...m, role });
}
