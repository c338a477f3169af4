import { timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { prepared } from "../prepared";
import { apiKeys } from "../../../db/platform/schema";
import type { PlatformPorts } from "../context";
import { sha256 } from "../auth/tokens";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Keys look like `pms_<prefix>_<secret>`; the prefix finds the row, the hash of the whole key proves it. */
export function splitKey(key: string): { prefix: string } | null {
  const m = /^pms_([A-Za-z0-9]{12})_[A-Za-z0-9_-]{20,}$/.exec(key);
  return m ? { prefix: m[1] } : null;
}

/** Returns the API key row matching `key`, or null. */
export function authenticateApiKey({
  ctx,
  input: { key },
}: {
  ctx: Pick<PlatformPorts, "platformDb">;
  input: { key: string };
}): ApiKeyRow | null {
  const parts = splitKey(key);
  if (!parts) return null;
  const db = ctx.platformDb;
  const candidates = prepared(db, "apiKeysByPrefix", () =>
    db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, sql.placeholder("prefix")))
      .prepare(),
  ).all({ prefix: parts.prefix });
  return matchingHash(candidates, key);
}

/** The row whose stored hash is the hash of `secret` (constant-time comparison), or null. */
export function matchingHash<R extends { hash: string }>(rows: R[], secret: string): R | null {
  const wanted = Buffer.from(sha256(secret), "hex");
  for (const row of rows) {
    const have = Buffer.from(row.hash, "hex");
    if (have.length === wanted.length && timingSafeEqual(have, wanted)) return row;
  }
  return null;
}
