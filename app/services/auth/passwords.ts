import type { Admission } from "../admission";
import { BadRequestError } from "../errors";

export const MIN_PASSWORD_LENGTH = 8;

/** Hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

/**
 * Checks a password against its argon2id hash once `gate` admits it: each check holds a core for ~340 ms on Bun's
 * thread pool, so only a bounded number run at once and the JavaScript thread keeps a core; `key` (a tenant, else the
 * caller's address) is whose turn it is when checks wait. 429 when that key already has too many waiting.
 */
export function verifyPassword(password: string, hash: string, gate: Admission, key: string): Promise<boolean> {
  return gate.admit(key, () => Bun.password.verify(password, hash).catch(() => false));
}

/** Refuses passwords shorter than the minimum with a field error. */
export function checkPasswordPolicy(password: string, field = "password"): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new BadRequestError("Password too short", [
      { field, message: `must have at least ${MIN_PASSWORD_LENGTH} characters` },
    ]);
  }
}
