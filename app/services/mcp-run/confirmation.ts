import { createHmac, timingSafeEqual } from "node:crypto";
import { BadRequestError } from "../errors";

/** How long a preview's confirmationToken is valid (spec, Limits). */
export const CONFIRMATION_TTL_MS = 10 * 60_000;

/** What a confirmationToken binds: change any of them after the preview and the token stops matching. */
export interface ConfirmationFields {
  taskId: string;
  userId: string;
  variables: Record<string, unknown>;
}

/** JSON with object keys sorted at every level, so two equal variable maps give the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * Signs and checks the MCP completion's confirmationToken: `<expiresAt>.<HMAC-SHA256(task id, user, canonical
 * variables, expiresAt)>`. Nothing is stored: the token is checked by recomputing it. The key is derived from the
 * service's signing secret, so tokens survive a restart and are refused by another installation.
 */
export interface ConfirmationSigner {
  sign(fields: ConfirmationFields, now: number): { token: string; expiresAt: string };
  /** Throws 400 when the token does not match the fields, or has expired. */
  verify(token: string, fields: ConfirmationFields, now: number): void;
}

export function createConfirmationSigner(secret: string): ConfirmationSigner {
  const key = createHmac("sha256", secret).update("mcp-confirmation-token").digest();
  const mac = (f: ConfirmationFields, expiresAt: number) =>
    createHmac("sha256", key)
      .update([f.taskId, f.userId, canonicalJson(f.variables), String(expiresAt)].join("\n"))
      .digest();
  return {
    sign(fields, now) {
      const expiresAt = now + CONFIRMATION_TTL_MS;
      return {
        token: `${expiresAt}.${mac(fields, expiresAt).toString("base64url")}`,
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },
    verify(token, fields, now) {
      const [exp, sig, extra] = token.split(".");
      const expiresAt = Number(exp);
      const given = Buffer.from(sig ?? "", "base64url");
      const expected = Number.isSafeInteger(expiresAt) ? mac(fields, expiresAt) : null;
      if (extra !== undefined || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new BadRequestError(
          "The confirmationToken does not match this task, user and variables: call svc_run_task_preview with exactly the variables to complete with",
          [{ field: "confirmationToken", message: "does not match" }],
        );
      }
      if (now > expiresAt) {
        throw new BadRequestError(
          "The confirmationToken has expired (valid 10 minutes): preview the completion again",
          [{ field: "confirmationToken", message: "expired" }],
        );
      }
    },
  };
}
