import { eq } from "drizzle-orm";
import { users } from "../../../db/platform/schema";
import { TooManyRequestsError, UnauthorizedError } from "../errors";
import { verifyPassword } from "./passwords";
import type { PlatformCtx } from "../context";
import { createSession, issueRefreshToken, sessionResponse, type LoginResponse, type UserRow } from "./sessions";

/** Attempts per address per minute; failures back off per (account, address) and per address (rate-limiter.ts). */
export const LOGIN_LIMIT_PER_IP = 20;

export type LoginCtx = PlatformCtx<"platformDb" | "tenants" | "tokens" | "limiters">;

/**
 * Checks e-mail and password of an active user; counts against the login limiter. Shared by login and MCP Basic.
 * `turnOf` is whose turn the password check waits in (the tenant named, else the caller's address).
 */
export async function checkCredentials(
  ctx: LoginCtx,
  emailIn: string,
  password: string,
  ip: string,
  turnOf = `ip:${ip}`,
): Promise<UserRow> {
  const email = emailIn.trim().toLowerCase();
  const { loginIp, loginIpFailures, loginAccount } = ctx.limiters;
  const account = `${email}\n${ip}`;
  const waitMs = Math.max(loginIpFailures.waitMs(ip), loginAccount.waitMs(account));
  if (waitMs > 0) throw new TooManyRequestsError("Too many failed logins, try again later", Math.ceil(waitMs / 1000));
  if (!loginIp.hit(ip, LOGIN_LIMIT_PER_IP)) {
    throw new TooManyRequestsError("Too many login attempts, try again later", loginIp.retryAfterSeconds(ip));
  }
  const user = ctx.platformDb.select().from(users).where(eq(users.email, email)).get();
  const ok =
    !!user && user.active && (await verifyPassword(password, user.passwordHash, ctx.limiters.passwordHashing, turnOf));
  if (!ok || !user) {
    loginAccount.fail(account);
    loginIpFailures.fail(ip);
    throw new UnauthorizedError("Invalid email or password");
  }
  loginAccount.reset(account);
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
