import { count } from "drizzle-orm";
import { users } from "../../db/platform/schema";
import type { Platform } from "./platform";
import { hashPassword } from "../services/auth/passwords";
import { randomSecret } from "../services/auth/tokens";

/** The first SUPER_ADMIN, when this start created it; `password` only when it was generated (shown once). */
export type BootstrappedAdmin = { email: string; password?: string };

/**
 * On an empty platform database, creates the SUPER_ADMIN and returns it (undefined when users exist already); a
 * generated password is also logged once, for installs that read only the logs.
 */
export async function bootstrapSuperAdmin(p: Platform): Promise<BootstrappedAdmin | undefined> {
  const existing = p.platformDb.select({ n: count() }).from(users).get();
  if ((existing?.n ?? 0) > 0) return undefined;
  const password = p.config.bootstrapAdminPassword ?? randomSecret(12);
  const now = new Date(p.clock.now()).toISOString();
  p.platformDb
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email: p.config.bootstrapAdminEmail,
      passwordHash: await hashPassword(password),
      firstName: "Admin",
      lastName: null,
      globalRole: "SUPER_ADMIN",
      active: true,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  const email = p.config.bootstrapAdminEmail;
  if (p.config.bootstrapAdminPassword) {
    p.log(`[bootstrap] SUPER_ADMIN ${email} created`);
    return { email };
  }
  p.log(`[bootstrap] SUPER_ADMIN ${email} created with password: ${password}  (shown once)`);
  return { email, password };
}
