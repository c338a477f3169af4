import { BadRequestError } from "../errors";

export const MIN_PASSWORD_LENGTH = 8;

/** Hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash).catch(() => false);
}

/** Refuses passwords shorter than the minimum with a field error. */
export function checkPasswordPolicy(password: string, field = "password"): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new BadRequestError("Password too short", [
      { field, message: `must have at least ${MIN_PASSWORD_LENGTH} characters` },
    ]);
  }
}
