import { eq } from "drizzle-orm";
import { refreshTokens, sessions, users } from "../../../db/platform/schema";
import { UnauthorizedError } from "../errors";
import { immediate } from "../../../db/connection";
import { sha256 } from "./tokens";
import {
  issueRefreshToken,
  REFRESH_TTL_MS,
  rolesIn,
  sessionResponse,
  type LoginResponse,
  type SessionCtx,
} from "./sessions";

/**
 * POST /auth/refresh: rotates the refresh token. A token already used once means it leaked: the whole session is
 * revoked so neither the thief nor the owner can go on with it.
 */
export async function refresh({
  ctx,
  input: { refreshToken },
}: {
  ctx: SessionCtx;
  input: { refreshToken: string };
}): Promise<LoginResponse> {
  const now = ctx.clock.now();
  const outcome = immediate(ctx.platformDb.$client, () => {
    const row = ctx.platformDb
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.hash, sha256(refreshToken)))
      .get();
    if (!row) return { error: "Invalid refresh token" } as const;
    if (row.status !== "ACTIVE") {
      ctx.platformDb.delete(sessions).where(eq(sessions.id, row.sessionId)).run();
      return { error: "Refresh token reuse detected: the session has been revoked" } as const;
    }
    const session = ctx.platformDb.select().from(sessions).where(eq(sessions.id, row.sessionId)).get();
    if (!session || Date.parse(session.expiresAt) <= now) return { error: "Session expired" } as const;
    const user = ctx.platformDb.select().from(users).where(eq(users.id, session.userId)).get();
    if (!user?.active) return { error: "User is not active" } as const;
    ctx.platformDb.update(refreshTokens).set({ status: "USED" }).where(eq(refreshTokens.hash, row.hash)).run();
    let tenantId = session.tenantId;
    if (tenantId && !rolesIn(ctx, user, tenantId)) tenantId = null;
    ctx.platformDb
      .update(sessions)
      .set({
        lastUsedAt: new Date(now).toISOString(),
        expiresAt: new Date(now + REFRESH_TTL_MS).toISOString(),
        tenantId,
      })
      .where(eq(sessions.id, session.id))
      .run();
    return { user, sid: session.id, tenantId, token: issueRefreshToken(ctx, session.id) } as const;
  });
  if ("error" in outcome) throw new UnauthorizedError(outcome.error);
  const tenant = outcome.tenantId ? (ctx.tenants.get(outcome.tenantId) ?? null) : null;
  return sessionResponse(ctx, outcome.user, outcome.sid, tenant, outcome.token);
}
