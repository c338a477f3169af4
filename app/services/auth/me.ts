import { eq, sql } from "drizzle-orm";
import { prepared } from "../prepared";
import { sessions, users } from "../../../db/platform/schema";
import { NotFoundError, UnauthorizedError } from "../errors";
import type { AccessClaims } from "./tokens";
import { globalRoles, tenantsOf, type SessionCtx } from "./sessions";

type MeCtx = SessionCtx;
type MeInput = { claims: AccessClaims };

function userOf(ctx: MeCtx, claims: AccessClaims) {
  const user = prepared(ctx.platformDb, "userById", () =>
    ctx.platformDb
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id: claims.sub });
  if (!user?.active) throw new UnauthorizedError("User is not active");
  return user;
}

/** GET /auth/me */
export function me({ ctx, input: { claims } }: { ctx: MeCtx; input: MeInput }) {
  const user = userOf(ctx, claims);
  const tenant = claims.tenant ? ctx.tenants.get(claims.tenant) : undefined;
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    roles: globalRoles(user),
    tenant: tenant ? { id: tenant.id, slug: tenant.slug, name: tenant.name } : null,
    tenantRoles: claims.tenant ? claims.roles.filter((r) => r !== "SUPER_ADMIN") : [],
  };
}

/** GET /auth/me/tenants */
export function myTenants({ ctx, input: { claims } }: { ctx: MeCtx; input: MeInput }) {
  return tenantsOf(ctx, userOf(ctx, claims));
}

/** GET /auth/me/session */
export function mySession({ ctx, input: { claims } }: { ctx: MeCtx; input: MeInput }) {
  const s = ctx.platformDb.select().from(sessions).where(eq(sessions.id, claims.sid)).get();
  if (!s) throw new NotFoundError("Session has ended");
  return {
    sid: s.id,
    userId: s.userId,
    tenantId: claims.tenant ?? null,
    tenantSlug: claims.tenantSlug ?? null,
    roles: claims.roles,
    createdAt: s.createdAt,
    lastUsedAt: s.lastUsedAt,
    refreshExpiresAt: s.expiresAt,
    accessTokenExpiresAt: claims.exp ? new Date(claims.exp * 1000).toISOString() : null,
  };
}
