import { and, eq } from "drizzle-orm";
import { memberships, refreshTokens, sessions, tenants, type users } from "../../../db/platform/schema";
import type { Platform } from "../../platform/platform";
import { randomSecret, sha256 } from "./tokens";

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
export function tenantsOf(p: Platform, user: UserRow): (TenantSummary & { role: string | null })[] {
  if (user.globalRole === "SUPER_ADMIN") {
    const roleByTenant = new Map(
      p.platformDb
        .select()
        .from(memberships)
        .where(eq(memberships.userId, user.id))
        .all()
        .map((m) => [m.tenantId, m.role]),
    );
    return p.tenants.all().map((t) => ({ id: t.id, slug: t.slug, name: t.name, role: roleByTenant.get(t.id) ?? null }));
  }
  return p.platformDb
    .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, role: memberships.role })
    .from(memberships)
    .innerJoin(tenants, eq(memberships.tenantId, tenants.id))
    .where(eq(memberships.userId, user.id))
    .all();
}

/** Roles the user holds in one tenant, plus the global role; null when neither member nor SUPER_ADMIN. */
export function rolesIn(p: Platform, user: UserRow, tenantId: string): string[] | null {
  const m = p.platformDb
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, user.id), eq(memberships.tenantId, tenantId)))
    .get();
  if (!m && user.globalRole !== "SUPER_ADMIN") return null;
  return [...(m ? [m.role] : []), ...globalRoles(user)];
}

/** Issues a refresh token for a session, stored only as its hash. */
export function issueRefreshToken(p: Platform, sessionId: string): string {
  const token = `${sessionId}.${randomSecret(32)}`;
  p.platformDb
    .insert(refreshTokens)
    .values({ hash: sha256(token), sessionId, status: "ACTIVE", createdAt: new Date(p.clock.now()).toISOString() })
    .run();
  return token;
}

/** Builds the login-shaped answer for a session and (optional) tenant. */
export async function sessionResponse(
  p: Platform,
  user: UserRow,
  sessionId: string,
  tenant: TenantSummary | null,
  refreshToken: string,
): Promise<LoginResponse> {
  const roles = tenant ? (rolesIn(p, user, tenant.id) ?? []) : globalRoles(user);
  const accessToken = await p.tokens.sign({
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
    tenants: tenantsOf(p, user).map(({ id, slug, name }) => ({ id, slug, name })),
  };
}

export function createSession(p: Platform, userId: string, ip: string, userAgent: string | null): string {
  const id = crypto.randomUUID();
  const now = p.clock.now();
  p.platformDb
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
