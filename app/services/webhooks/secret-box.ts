import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Seals secrets the service must read back (webhook signing secrets) with AES-256-GCM under a key derived (HKDF) from
 * the service secret, so a copy of the database alone does not reveal them. Sealed text: iv.tag.ciphertext, base64url.
 */
export function createSecretBox(serviceSecret: string, purpose: string) {
  const key = Buffer.from(hkdfSync("sha256", serviceSecret, "pms-secret-box", purpose, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const c = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
      return [iv, c.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
    },
    open(sealed: string): string {
      const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
      const d = createDecipheriv("aes-256-gcm", key, iv);
      d.setAuthTag(tag);
      return Buffer.concat([d.update(body), d.final()]).toString("utf8");
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
