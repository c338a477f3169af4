import { eq } from "drizzle-orm";
import { passwordResets, sessions, users } from "../../../db/platform/schema";
import type { Platform } from "../../platform/platform";
import { BadRequestError, TooManyRequestsError } from "../errors";
import { immediate } from "../../../db/connection";
import { randomSecret, sha256 } from "./tokens";
import { checkPasswordPolicy, hashPassword } from "./passwords";

export const RESET_TTL_MS = 3600_000;
export const FORGOT_LIMIT_PER_IP = 5;

/** POST /auth/password/forgot: the same answer whether or not the address exists; the token is mailed or logged. */
export async function forgotPassword(p: Platform, emailIn: string, ip: string): Promise<void> {
  if (!p.limiters.forgotIp.hit(ip, FORGOT_LIMIT_PER_IP))
    throw new TooManyRequestsError("Too many reset requests, try again later");
  const email = emailIn.trim().toLowerCase();
  const user = p.platformDb.select().from(users).where(eq(users.email, email)).get();
  if (!user?.active) return;
  const token = randomSecret(32);
  const now = p.clock.now();
  p.platformDb
    .insert(passwordResets)
    .values({
      hash: sha256(token),
      userId: user.id,
      expiresAt: new Date(now + RESET_TTL_MS).toISOString(),
      createdAt: new Date(now).toISOString(),
    })
    .run();
  try {
    await p.mailer.send({
      to: user.email,
      subject: "Password reset",
      text: `Use this token within one hour to choose a new password (POST /api/auth/password/reset):\n\n${token}\n`,
    });
  } catch (e) {
    p.log(`[mail] password reset mail to ${user.email} failed: ${e instanceof Error ? e.message : e}`);
  }
}

/** POST /auth/password/reset: a valid unused token sets the new password and ends every session of the user. */
export async function resetPassword(p: Platform, token: string, newPassword: string): Promise<void> {
  checkPasswordPolicy(newPassword, "newPassword");
  const hash = await hashPassword(newPassword);
  const now = p.clock.now();
  const ok = immediate(p.platformSqlite, () => {
    const row = p.platformDb
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.hash, sha256(token)))
      .get();
    if (!row || row.usedAt || Date.parse(row.expiresAt) <= now) return false;
    p.platformDb
      .update(passwordResets)
      .set({ usedAt: new Date(now).toISOString() })
      .where(eq(passwordResets.hash, row.hash))
      .run();
    p.platformDb
      .update(users)
      .set({ passwordHash: hash, updatedAt: new Date(now).toISOString() })
      .where(eq(users.id, row.userId))
      .run();
    p.platformDb.delete(sessions).where(eq(sessions.userId, row.userId)).run();
    return true;
  });
  if (!ok)
    throw new BadRequestError("Invalid or expired reset token", [{ field: "token", message: "invalid or expired" }]);
}
