import { eq } from "drizzle-orm";
import { users } from "../../../db/platform/schema";
import { TooManyRequestsError, UnauthorizedError } from "../errors";
import { verifyPassword } from "./passwords";
import type { PlatformCtx } from "../context";
import { createSession, issueRefreshToken, sessionResponse, type LoginResponse, type UserRow } from "./sessions";

/** Attempts per IP per minute, and failed attempts per e-mail per 15 minutes (docs/decisions.md). */
export const LOGIN_LIMIT_PER_IP = 20;
export const LOGIN_FAILURES_PER_EMAIL = 10;

export type LoginCtx = PlatformCtx<"platformDb" | "tenants" | "tokens" | "limiters">;

/** Checks e-mail and password of an active user; counts against the login limiter. Shared by login and MCP Basic. */
export async function checkCredentials(ctx: LoginCtx, emailIn: string, password: string, ip: string): Promise<UserRow> {
  const email = emailIn.trim().toLowerCase();
  if (
    !ctx.limiters.loginIp.hit(ip, LOGIN_LIMIT_PER_IP) ||
    ctx.limiters.loginEmail.exhausted(email, LOGIN_FAILURES_PER_EMAIL)
  ) {
    throw new TooManyRequestsError("Too many login attempts, try again later");
  }
  const user = ctx.platformDb.select().from(users).where(eq(users.email, email)).get();
  const ok = !!user && user.active && (await verifyPassword(password, user.passwordHash));
  if (!ok || !user) {
    ctx.limiters.loginEmail.hit(email, LOGIN_FAILURES_PER_EMAIL);
    throw new UnauthorizedError("Invalid email or password");
  }
  ctx.limiters.loginEmail.reset(email);
  return user;
}

/** POST /auth/login: a new session with an access token (no tenant yet) and a refresh token. */
export async function login({
  ctx,
  input,
}: {
  ctx: LoginCtx;
  input: { email: string; password: string; ip: string; userAgent: string | null };
}): Promise<LoginResponse> {
  const user = await checkCredentials(ctx, input.email, input.password, input.ip);
  const sid = createSession(ctx, user.id, input.ip, input.userAgent);
  return sessionResponse(ctx, user, sid, null, issueRefreshToken(ctx, sid));
}
