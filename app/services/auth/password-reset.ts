import { eq } from "drizzle-orm";
import { passwordResets, sessions, users } from "../../../db/platform/schema";
import { BadRequestError, TooManyRequestsError } from "../errors";
import { immediate } from "../../../db/connection";
import { randomSecret, sha256 } from "./tokens";
import { checkPasswordPolicy, hashPassword } from "./passwords";
import type { PlatformCtx } from "../context";

export const RESET_TTL_MS = 3600_000;
export const FORGOT_LIMIT_PER_IP = 5;

export type ForgotPasswordCtx = PlatformCtx<"platformDb" | "limiters" | "mailer" | "log" | "defer">;

/**
 * POST /auth/password/forgot: the same answer, in the same time, whether or not the address exists: only the per-IP
 * limit is checked before answering; the lookup and the mail run after the answer (a slow mail server or a database
 * hit would otherwise tell a registered address from an unknown one).
 */
export function forgotPassword({ ctx, input }: { ctx: ForgotPasswordCtx; input: { email: string; ip: string } }): void {
  if (!ctx.limiters.forgotIp.hit(input.ip, FORGOT_LIMIT_PER_IP))
    throw new TooManyRequestsError(
      "Too many reset requests, try again later",
      ctx.limiters.forgotIp.retryAfterSeconds(input.ip),
    );
  const email = input.email.trim().toLowerCase();
  ctx.defer(() => mailResetToken(ctx, email));
}

async function mailResetToken(ctx: ForgotPasswordCtx, email: string): Promise<void> {
  const user = ctx.platformDb.select().from(users).where(eq(users.email, email)).get();
  if (!user?.active) return;
  const token = randomSecret(32);
  const now = ctx.clock.now();
  ctx.platformDb
    .insert(passwordResets)
    .values({
      hash: sha256(token),
      userId: user.id,
      expiresAt: new Date(now + RESET_TTL_MS).toISOString(),
      createdAt: new Date(now).toISOString(),
    })
    .run();
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: "Password reset",
      text: `Use this token within one hour to choose a new password (POST /api/auth/password/reset):\n\n${token}\n`,
    });
  } catch (e) {
    ctx.log(`[mail] password reset mail to ${user.email} failed: ${e instanceof Error ? e.message : e}`);
  }
}

/** POST /auth/password/reset: a valid unused token sets the new password and ends every session of the user. */
export async function resetPassword({
  ctx,
  input: { token, newPassword },
}: {
  ctx: PlatformCtx<"platformDb">;
  input: { token: string; newPassword: string };
}): Promise<void> {
  checkPasswordPolicy(newPassword, "newPassword");
  const hash = await hashPassword(newPassword);
  const now = ctx.clock.now();
  const ok = immediate(ctx.platformDb.$client, () => {
    const row = ctx.platformDb
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.hash, sha256(token)))
      .get();
    if (!row || row.usedAt || Date.parse(row.expiresAt) <= now) return false;
    ctx.platformDb
      .update(passwordResets)
      .set({ usedAt: new Date(now).toISOString() })
      .where(eq(passwordResets.hash, row.hash))
      .run();
    ctx.platformDb
      .update(users)
      .set({ passwordHash: hash, updatedAt: new Date(now).toISOString() })
      .where(eq(users.id, row.userId))
      .run();
    ctx.platformDb.delete(sessions).where(eq(sessions.userId, row.userId)).run();
    return true;
  });
  if (!ok)
    throw new BadRequestError("Invalid or expired reset token", [{ field: "token", message: "invalid or expired" }]);
}
