import { and, asc, eq, sql } from "drizzle-orm";
import { robotRunners } from "../../../db/platform/schema";
import { prepared } from "../prepared";
import type { PlatformPorts, TenantCtx } from "../context";
import { NotFoundError } from "../errors";
import { alphanumeric } from "../api-keys/manage";
import { matchingHash } from "../api-keys/authenticate";
import { randomSecret, sha256 } from "../auth/tokens";
import { VerifiedCredentials } from "../auth/verified-credentials";

export type RunnersCtx = TenantCtx<"platformDb" | "processRuntime">;
export type RunnerRow = typeof robotRunners.$inferSelect;

/** Who holds a runner's locks on the jobs table. */
export const lockOwnerOf = (runnerId: string) => `runner:${runnerId}`;

export function runnerView(r: RunnerRow) {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    revokedAt: r.revokedAt,
  };
}

/** POST /a/robot-runners: the token (`pmsr_<prefix>_<secret>`) is in this answer only; its hash is kept. */
export function createRunner({ ctx, input }: { ctx: RunnersCtx; input: { name: string } }) {
  const prefix = alphanumeric(12);
  const token = `pmsr_${prefix}_${randomSecret(24)}`;
  const row: RunnerRow = {
    id: crypto.randomUUID(),
    tenantId: ctx.tenant.id,
    name: input.name,
    prefix,
    hash: sha256(token),
    createdAt: new Date(ctx.clock.now()).toISOString(),
    createdBy: ctx.actor.userId,
    revokedAt: null,
  };
  ctx.platformDb.insert(robotRunners).values(row).run();
  return { ...runnerView(row), token };
}

export function listRunners({ ctx }: { ctx: RunnersCtx; input?: undefined }) {
  return ctx.platformDb
    .select()
    .from(robotRunners)
    .where(eq(robotRunners.tenantId, ctx.tenant.id))
    .orderBy(asc(robotRunners.createdAt))
    .all()
    .map(runnerView);
}

/** DELETE /a/robot-runners/{id}: the token stops working at once and the jobs the runner held go back to the queue. */
export async function revokeRunner({ ctx, input }: { ctx: RunnersCtx; input: { id: string } }) {
  const row = ctx.platformDb
    .select()
    .from(robotRunners)
    .where(and(eq(robotRunners.id, input.id), eq(robotRunners.tenantId, ctx.tenant.id)))
    .get();
  if (!row) throw new NotFoundError(`Robot runner ${input.id} not found`);
  if (!row.revokedAt)
    ctx.platformDb
      .update(robotRunners)
      .set({ revokedAt: new Date(ctx.clock.now()).toISOString() })
      .where(eq(robotRunners.id, row.id))
      .run();
  verifiedTokens(ctx.platformDb).forgetSubject(row.id);
  await ctx.processRuntime.externalJobs.releaseOwner(lockOwnerOf(row.id));
}

// Tokens verified in the last seconds, per platform database: a runner sends a request per job, and the prefix lookup
// with the SHA-256 of the token was 7 % of a job's CPU. Revoking a runner forgets its tokens, so a revoked token is
// refused from the next request on; a tenant that is suspended or deleted is refused by the tenant check after this.
// Expiry counts in performance.now() (monotonic), as it did before this memory was shared with MCP Basic.
const VERIFIED_MS = 10_000;
const VERIFIED_KEPT = 10_000;
const monotonic = { now: () => performance.now() };
const verified = new WeakMap<object, VerifiedCredentials<RunnerRow>>();
function verifiedTokens(db: object) {
  let m = verified.get(db);
  if (!m)
    verified.set(
      db,
      (m = new VerifiedCredentials({
        ttlMs: VERIFIED_MS,
        maxEntries: VERIFIED_KEPT,
        clock: monotonic,
        subjectOf: (r) => r.id,
      })),
    );
  return m;
}

/** The live runner a token belongs to, or null (malformed, unknown or revoked). */
export function authenticateRunner({
  ctx,
  input: { token },
}: {
  ctx: Pick<PlatformPorts, "platformDb">;
  input: { token: string };
}): RunnerRow | null {
  const db = ctx.platformDb;
  const cache = verifiedTokens(db);
  const hit = cache.get(token);
  if (hit) return hit;
  const m = /^pmsr_([A-Za-z0-9]{12})_[A-Za-z0-9_-]{20,}$/.exec(token);
  if (!m) return null;
  const rows = prepared(db, "robotRunnersByPrefix", () =>
    db
      .select()
      .from(robotRunners)
      .where(eq(robotRunners.prefix, sql.placeholder("prefix")))
      .prepare(),
  ).all({ prefix: m[1] });
  const row = matchingHash(rows, token);
  if (!row || row.revokedAt) return null;
  cache.remember(token, row);
  return row;
}
