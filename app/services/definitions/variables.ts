import { and, asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { processVariables } from "../../../db/tenant/schema";
import { isAdmin, type TenantCtx } from "../context";
import { ForbiddenError, NotFoundError } from "../errors";

type Row = typeof processVariables.$inferSelect;
export type ProcessVariablesCtx = TenantCtx<"processRuntime" | "db">;
type KeyInput = { ctx: ProcessVariablesCtx; input: { key: string } };

const orm = (ctx: ProcessVariablesCtx) => drizzle(ctx.db.sqlite);
/** A secret's value never leaves the server by a GET. */
const view = (r: Row) => ({
  name: r.name,
  value: r.secret ? null : r.value,
  secret: r.secret,
  description: r.description,
  updatedAt: r.updatedAt,
});

function requireDefinition(ctx: ProcessVariablesCtx, key: string) {
  ctx.processRuntime.getDefinition(ctx.tenant.id, key);
}

/** GET /a/definitions/{key}/variables (Admin): every configuration variable, secrets masked. */
export function listProcessVariables({ ctx, input }: KeyInput) {
  const { key } = input;
  requireDefinition(ctx, key);
  return orm(ctx)
    .select()
    .from(processVariables)
    .where(eq(processVariables.processKey, key))
    .orderBy(asc(processVariables.name))
    .all()
    .map(view);
}

/** GET /a/definitions/{key}/variables/public: the non-secret ones, for any member (forms and steps may show them). */
export function listPublicProcessVariables({ ctx, input }: KeyInput) {
  return listProcessVariables({ ctx, input }).filter((v) => !v.secret);
}

/** PUT /a/definitions/{key}/variables/{name} (Modeler): creates or replaces; only an Admin writes a secret. */
export function putProcessVariable({
  ctx,
  input,
}: {
  ctx: ProcessVariablesCtx;
  input: { key: string; name: string; value: string; secret?: boolean; description?: string | null };
}) {
  const { key, name } = input;
  requireDefinition(ctx, key);
  const db = orm(ctx);
  const existing = db
    .select()
    .from(processVariables)
    .where(and(eq(processVariables.processKey, key), eq(processVariables.name, name)))
    .get();
  const secret = input.secret ?? existing?.secret ?? false;
  if ((secret || existing?.secret) && !isAdmin(ctx.actor))
    throw new ForbiddenError("Only an Admin writes secret process variables");
  const row: Row = {
    processKey: key,
    name,
    value: input.value,
    secret,
    description: input.description ?? existing?.description ?? null,
    updatedBy: ctx.actor.userId,
    updatedAt: new Date(ctx.clock.now()).toISOString(),
  };
  db.insert(processVariables)
    .values(row)
    .onConflictDoUpdate({ target: [processVariables.processKey, processVariables.name], set: row })
    .run();
  return view(row);
}

/** DELETE /a/definitions/{key}/variables/{name} (Modeler; a secret only by an Admin). */
export function deleteProcessVariable({
  ctx,
  input,
}: {
  ctx: ProcessVariablesCtx;
  input: { key: string; name: string };
}) {
  const { key, name } = input;
  requireDefinition(ctx, key);
  const db = orm(ctx);
  const existing = db
    .select()
    .from(processVariables)
    .where(and(eq(processVariables.processKey, key), eq(processVariables.name, name)))
    .get();
  if (!existing) throw new NotFoundError(`Variable '${name}' not found in process '${key}'`);
  if (existing.secret && !isAdmin(ctx.actor))
    throw new ForbiddenError("Only an Admin deletes secret process variables");
  db.delete(processVariables)
    .where(and(eq(processVariables.processKey, key), eq(processVariables.name, name)))
    .run();
}
