import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Seals secrets the service must read back (SSO client secrets, webhook signing secrets) with AES-256-GCM under a key
 * derived (HKDF, one per purpose) from the JWT secret, so a copy of the database alone does not reveal them.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(jwtSecret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", jwtSecret, "pms-secret-box", purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
      return ["v1", iv, c.getAuthTag(), body]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(sealed) {
      const [, iv, tag, body] = sealed.split(".") as [string, string, string, string];
      const d = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      d.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
    },
  };
}
