import { eq } from "drizzle-orm";
import { users } from "../../../db/platform/schema";
import type { Platform } from "../../platform/platform";
import { TooManyRequestsError, UnauthorizedError } from "../errors";
import { verifyPassword } from "./passwords";
import { createSession, issueRefreshToken, sessionResponse, type LoginResponse, type UserRow } from "./sessions";

/** Attempts per IP per minute, and failed attempts per e-mail per 15 minutes (docs/decisions.md). */
export const LOGIN_LIMIT_PER_IP = 20;
export const LOGIN_FAILURES_PER_EMAIL = 10;

/** Checks e-mail and password of an active user; counts against the login limiter. Shared by login and MCP Basic. */
export async function checkCredentials(p: Platform, emailIn: string, password: string, ip: string): Promise<UserRow> {
  const email = emailIn.trim().toLowerCase();
  if (
    !p.limiters.loginIp.hit(ip, LOGIN_LIMIT_PER_IP) ||
    p.limiters.loginEmail.exhausted(email, LOGIN_FAILURES_PER_EMAIL)
  ) {
    throw new TooManyRequestsError("Too many login attempts, try again later");
  }
  const user = p.platformDb.select().from(users).where(eq(users.email, email)).get();
  const ok = !!user && user.active && (await verifyPassword(password, user.passwordHash));
  if (!ok || !user) {
    p.limiters.loginEmail.hit(email, LOGIN_FAILURES_PER_EMAIL);
    throw new UnauthorizedError("Invalid email or password");
  }
  p.limiters.loginEmail.reset(email);
  return user;
}

/** POST /auth/login: a new session with an access token (no tenant yet) and a refresh token. */
export async function login(
  p: Platform,
  input: { email: string; password: string },
  meta: { ip: string; userAgent: string | null },
): Promise<LoginResponse> {
  const user = await checkCredentials(p, input.email, input.password, meta.ip);
  const sid = createSession(p, user.id, meta.ip, meta.userAgent);
  return sessionResponse(p, user, sid, null, issueRefreshToken(p, sid));
}
