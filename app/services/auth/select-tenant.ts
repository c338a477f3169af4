import { and, eq } from "drizzle-orm";
import { refreshTokens, sessions, users } from "../../../db/platform/schema";
import type { AccessClaims } from "./tokens";
import type { PlatformCtx } from "../context";
import { ForbiddenError, ServiceUnavailableError, UnauthorizedError } from "../errors";
import { immediate } from "../../../db/connection";
export { normalizeSlug } from "../../../tenants/slug";
import { issueRefreshToken, rolesIn, sessionResponse, type LoginResponse, type SessionCtx } from "./sessions";

/** POST /auth/select-tenant: the session moves to the tenant; a new token pair carries it and the roles held there. */
export async function selectTenant({
  ctx,
  input: { claims, tenantSlug },
}: {
  ctx: SessionCtx;
  input: { claims: AccessClaims; tenantSlug: string };
}): Promise<LoginResponse> {
  const user = ctx.platformDb.select().from(users).where(eq(users.id, claims.sub)).get();
  if (!user?.active) throw new UnauthorizedError("User is not active");
  const tenant = ctx.tenants.bySlug(tenantSlug);
  if (!tenant || !rolesIn(ctx, user, tenant.id))
    throw new ForbiddenError(`You are not a member of tenant '${tenantSlug}'`);
  if (tenant.status === "CREATING" || tenant.status === "FAILED") {
    throw new ServiceUnavailableError(`Tenant ${tenant.slug} is not available (status ${tenant.status})`);
  }
  if (tenant.status !== "ACTIVE") throw new ForbiddenError(`Tenant ${tenant.slug} is ${tenant.status.toLowerCase()}`);
  const token = immediate(ctx.platformDb.$client, () => {
    const session = ctx.platformDb.select().from(sessions).where(eq(sessions.id, claims.sid)).get();
    if (!session) return null;
    ctx.platformDb.update(sessions).set({ tenantId: tenant.id }).where(eq(sessions.id, session.id)).run();
    // The pair is replaced: the refresh token of the tenant-less pair stops working.
    ctx.platformDb
      .update(refreshTokens)
      .set({ status: "USED" })
      .where(and(eq(refreshTokens.sessionId, session.id), eq(refreshTokens.status, "ACTIVE")))
      .run();
    return issueRefreshToken(ctx, session.id);
  });
  if (!token) throw new UnauthorizedError("Session has ended");
  return sessionResponse(ctx, user, claims.sid, tenant, token);
}

/** POST /auth/logout: deletes the session (and so its refresh tokens); other sessions stay. */
export function logout({
  ctx,
  input: { claims },
}: {
  ctx: PlatformCtx<"platformDb">;
  input: { claims: AccessClaims };
}): void {
  ctx.platformDb.delete(sessions).where(eq(sessions.id, claims.sid)).run();
}
