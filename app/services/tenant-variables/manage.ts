import { asc, eq } from "drizzle-orm";
import { tenantVariables } from "../../../db/tenant/schema";
import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { ConflictError, NotFoundError } from "../errors";
import { withPeople } from "../people/people";
import { sealSecret } from "./sealing";

export type TenantVariablesCtx = TenantCtx<"db" | "platformDb">;

type Row = typeof tenantVariables.$inferSelect;

/** A secret's value is write-only: no response ever carries it. */
function variableView(v: Row) {
  return {
    name: v.name,
    value: v.secret ? null : v.value,
    secret: v.secret,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    updatedBy: v.updatedBy,
  };
}

const nowIso = (ctx: TenantVariablesCtx) => new Date(ctx.clock.now()).toISOString();

function find(ctx: TenantVariablesCtx, name: string): Row | undefined {
  return ctx.db.orm.select().from(tenantVariables).where(eq(tenantVariables.name, name)).get();
}

/** The views of `rows`, each naming who last wrote it (`updatedByUser`), read in one query. */
const viewsOf = (ctx: TenantVariablesCtx, rows: Row[]) =>
  withPeople(ctx.platformDb, ctx.tenant.id, rows.map(variableView), ["updatedBy"]);

export function listVariables({ ctx }: { ctx: TenantVariablesCtx; input?: undefined }) {
  return viewsOf(ctx, ctx.db.orm.select().from(tenantVariables).orderBy(asc(tenantVariables.name)).all());
}

export function getVariable({ ctx, input: { name } }: { ctx: TenantVariablesCtx; input: { name: string } }) {
  const row = find(ctx, name);
  if (!row) throw new NotFoundError(`Tenant variable '${name}' not found`);
  return viewsOf(ctx, [row])[0];
}

/** POST /a/variables: 409 when the name exists (PUT replaces). */
export function createVariable({
  ctx,
  input,
}: {
  ctx: TenantVariablesCtx;
  input: { name: string; value: string; secret?: boolean };
}) {
  const at = nowIso(ctx);
  const secret = input.secret ?? false;
  const row: Row = {
    name: input.name,
    value: secret ? sealSecret(ctx.db, input.value) : input.value,
    secret,
    updatedBy: ctx.actor.userId,
    createdAt: at,
    updatedAt: at,
  };
  immediate(ctx.db.sqlite, () => {
    if (find(ctx, input.name)) throw new ConflictError(`Tenant variable '${input.name}' already exists`);
    ctx.db.orm.insert(tenantVariables).values(row).run();
  });
  return viewsOf(ctx, [row])[0];
}

/**
 * PUT /a/variables/{name}: creates or replaces. The value is always sent again, so turning a secret into a plain value
 * never reveals the old secret.
 */
export function putVariable({
  ctx,
  input: { name, ...input },
}: {
  ctx: TenantVariablesCtx;
  input: { name: string; value: string; secret?: boolean };
}) {
  const at = nowIso(ctx);
  const saved = immediate(ctx.db.sqlite, () => {
    const old = find(ctx, name);
    const secret = input.secret ?? old?.secret ?? false;
    const row: Row = {
      name,
      value: secret ? sealSecret(ctx.db, input.value) : input.value,
      secret,
      updatedBy: ctx.actor.userId,
      createdAt: old?.createdAt ?? at,
      updatedAt: at,
    };
    ctx.db.orm
      .insert(tenantVariables)
      .values(row)
      .onConflictDoUpdate({
        target: tenantVariables.name,
        set: { value: row.value, secret: row.secret, updatedBy: row.updatedBy, updatedAt: at },
      })
      .run();
    return row;
  });
  return viewsOf(ctx, [saved])[0];
}

export function deleteVariable({ ctx, input: { name } }: { ctx: TenantVariablesCtx; input: { name: string } }): void {
  if (!find(ctx, name)) throw new NotFoundError(`Tenant variable '${name}' not found`);
  ctx.db.orm.delete(tenantVariables).where(eq(tenantVariables.name, name)).run();
}
