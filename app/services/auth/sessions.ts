import { and, eq } from "drizzle-orm";
import { memberships, refreshTokens, sessions, tenants, type users } from "../../../db/platform/schema";
import { randomSecret, sha256 } from "./tokens";
import type { PlatformCtx } from "../context";

/** What session helpers read: the platform tables, the tenant directory and the token signer. */
export type SessionCtx = PlatformCtx<"platformDb" | "tenants" | "tokens">;

/** Refresh tokens live 14 days from their issue; each use rotates them. */
export const REFRESH_TTL_MS = 14 * 24 * 3600_000;

export type UserRow = typeof users.$inferSelect;

export interface TenantSummary {
  id: string;
  slug: string;
  name: string;
}

export interface LoginResponse {
  accessToken: string;
  refreshToken: string;
  user: { id: string; email: string; firstName: string };
  roles: string[];
  tenants: TenantSummary[];
}

export const globalRoles = (u: UserRow): string[] => (u.globalRole ? [u.globalRole] : []);

/** Tenants a user can select: their memberships, or every tenant for a SUPER_ADMIN. */
export function tenantsOf(ctx: SessionCtx, user: UserRow): (TenantSummary & { role: string | null })[] {
  if (user.globalRole === "SUPER_ADMIN") {
    const roleByTenant = new Map(
      ctx.platformDb
        .select()
        .from(memberships)
        .where(eq(memberships.userId, user.id))
        .all()
        .map((m) => [m.tenantId, m.role]),
    );
    return ctx.tenants
      .all()
      .map((t) => ({ id: t.id, slug: t.slug, name: t.name, role: roleByTenant.get(t.id) ?? null }));
  }
  return ctx.platformDb
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(memberships.tenantId, tenants.id))
    .where(eq(memberships.userId, user.id))
    .all();
}

/** Roles the user holds in one tenant, plus the global role; null when neither member nor SUPER_ADMIN. */
export function rolesIn(ctx: Pick<SessionCtx, "platformDb">, user: UserRow, tenantId: string): string[] | null {
  const m = ctx.platformDb
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, user.id), eq(memberships.tenantId, tenantId)))
    .get();
  if (!m && user.globalRole !== "SUPER_ADMIN") return null;
  return [...(m ? [m.role] : []), ...globalRoles(user)];
}

/** Issues a refresh token for a session, stored only as its hash. */
export function issueRefreshToken(ctx: SessionCtx, sessionId: string): string {
  const token = `${sessionId}.${randomSecret(32)}`;
  ctx.platformDb
    .insert(refreshTokens)
    .values({ hash: sha256(token), sessionId, status: "ACTIVE", createdAt: new Date(ctx.clock.now()).toISOString() })
    .run();
  return token;
}

/** Builds the login-shaped answer for a session and (optional) tenant. */
export async function sessionResponse(
  ctx: SessionCtx,
  user: UserRow,
  sessionId: string,
  tenant: TenantSummary | null,
  refreshToken: string,
): Promise<LoginResponse> {
  const roles = tenant ? (rolesIn(ctx, user, tenant.id) ?? []) : globalRoles(user);
  const accessToken = await ctx.tokens.sign({
    sub: user.id,
    sid: sessionId,
    tenant: tenant?.id,
    tenantSlug: tenant?.slug,
    roles,
  });
  return {
    accessToken,
    refreshToken,
    user: { id: user.id, email: user.email, firstName: user.firstName },
    roles,
    tenants: tenantsOf(ctx, user).map(({ id, slug, name }) => ({ id, slug, name })),
  };
}

export function createSession(ctx: SessionCtx, userId: string, ip: string, userAgent: string | null): string {
  const id = crypto.randomUUID();
  const now = ctx.clock.now();
  ctx.platformDb
    .insert(sessions)
    .values({
      id,
      userId,
      tenantId: null,
      ip,
      userAgent,
      createdAt: new Date(now).toISOString(),
      lastUsedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + REFRESH_TTL_MS).toISOString(),
    })
    .run();
  return id;
}
