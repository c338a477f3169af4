import { and, asc, eq, sql } from "drizzle-orm";
import { prepared } from "../prepared";
import { apiKeys } from "../../../db/platform/schema";
import type { TenantCtx } from "../context";

/** API keys are rows of the platform database, scoped to the caller's tenant. */
export type ApiKeysCtx = TenantCtx<"platformDb">;
import { BadRequestError, NotFoundError } from "../errors";
import { randomSecret, sha256 } from "../auth/tokens";
import { parseScopes, VALID_SCOPES, type Scope } from "./scopes";

type ApiKeyRow = typeof apiKeys.$inferSelect;

export function apiKeyView(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: [...parseScopes(k.scopes)],
    rateLimitPerMinute: k.rateLimitPerMinute,
    createdAt: k.createdAt,
    createdBy: k.createdBy,
  };
}

/** Scopes must be a non-empty list of known values; anything else is a 400 naming the valid scopes. */
export function checkScopes(scopes: unknown): Scope[] {
  const ok =
    Array.isArray(scopes) &&
    scopes.length > 0 &&
    scopes.every((s) => typeof s === "string" && (VALID_SCOPES as string[]).includes(s));
  if (!ok) {
    throw new BadRequestError(`scopes must be a non-empty list of: ${VALID_SCOPES.join(", ")}`, [
      { field: "scopes", message: `must be a non-empty list of ${VALID_SCOPES.join(", ")}` },
    ]);
  }
  return [...new Set(scopes as Scope[])];
}

/** n random letters and digits (key prefixes). */
export const alphanumeric = (n: number) =>
  randomSecret(n * 2)
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, n)
    .padEnd(n, "0");

/** POST /a/api-keys: the key is returned once; only its prefix and hash are kept. */
export function createApiKey({
  ctx,
  input,
}: {
  ctx: ApiKeysCtx;
  input: { name: string; scopes?: unknown; rateLimitPerMinute?: number };
}) {
  const scopes = checkScopes(input.scopes);
  const prefix = alphanumeric(12);
  const key = `pms_${prefix}_${randomSecret(24)}`;
  const row: ApiKeyRow = {
    id: crypto.randomUUID(),
    tenantId: ctx.tenant.id,
    name: input.name,
    prefix,
    hash: sha256(key),
    scopes: JSON.stringify(scopes),
    rateLimitPerMinute: input.rateLimitPerMinute ?? 100,
    createdBy: ctx.actor.userId,
    createdAt: new Date(ctx.clock.now()).toISOString(),
    lastUsedAt: null,
  };
  ctx.platformDb.insert(apiKeys).values(row).run();
  return { ...apiKeyView(row), key };
}

export function listApiKeys({ ctx }: { ctx: ApiKeysCtx; input?: undefined }) {
  const db = ctx.platformDb;
  return prepared(db, "apiKeysOfTenant", () =>
    db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.tenantId, sql.placeholder("tenantId")))
      .orderBy(asc(apiKeys.createdAt))
      .prepare(),
  )
    .all({ tenantId: ctx.tenant.id })
    .map(apiKeyView);
}

function getKey(ctx: ApiKeysCtx, id: string): ApiKeyRow {
  const row = ctx.platformDb
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, ctx.tenant.id)))
    .get();
  if (!row) throw new NotFoundError(`API key ${id} not found`);
  return row;
}

/** PATCH /a/api-keys/{id}: absent fields keep their value; present scopes replace the list. */
export function patchApiKey({
  ctx,
  input: { id, ...input },
}: {
  ctx: ApiKeysCtx;
  input: { id: string; name?: string; scopes?: unknown; rateLimitPerMinute?: number };
}) {
  const row = getKey(ctx, id);
  const changes: Partial<ApiKeyRow> = {};
  if (input.scopes !== undefined) changes.scopes = JSON.stringify(checkScopes(input.scopes));
  if (input.name !== undefined) changes.name = input.name;
  if (input.rateLimitPerMinute !== undefined) changes.rateLimitPerMinute = input.rateLimitPerMinute;
  if (Object.keys(changes).length) ctx.platformDb.update(apiKeys).set(changes).where(eq(apiKeys.id, id)).run();
  return apiKeyView({ ...row, ...changes });
}

export function deleteApiKey({ ctx, input: { id } }: { ctx: ApiKeysCtx; input: { id: string } }) {
  getKey(ctx, id);
  ctx.platformDb.delete(apiKeys).where(eq(apiKeys.id, id)).run();
}
