import { count } from "drizzle-orm";
import { users } from "../../db/platform/schema";
import type { Platform } from "./platform";
import { hashPassword } from "../services/auth/passwords";
import { randomSecret } from "../services/auth/tokens";

/** On an empty platform database, creates the SUPER_ADMIN; a generated password is printed once. */
export async function bootstrapSuperAdmin(p: Platform): Promise<void> {
  const existing = p.platformDb.select({ n: count() }).from(users).get();
  if ((existing?.n ?? 0) > 0) return;
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
  if (p.config.bootstrapAdminPassword) p.log(`[bootstrap] SUPER_ADMIN ${p.config.bootstrapAdminEmail} created`);
  else
    p.log(`[bootstrap] SUPER_ADMIN ${p.config.bootstrapAdminEmail} created with password: ${password}  (shown once)`);
}
