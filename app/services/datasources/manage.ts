import { asc, eq } from "drizzle-orm";
import { datasources } from "../../../db/tenant/schema";
import { immediate } from "../../../db/connection";
import { isAdmin, type TenantCtx } from "../context";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors";
import { secretNamesAmong } from "../tenant-variables/resolve";
import { parseConfig } from "./kinds";
import { referencedVariables } from "./placeholders";

export type DatasourcesCtx = TenantCtx<"db">;

export type DataSourceRow = typeof datasources.$inferSelect;

export function dataSourceView(d: DataSourceRow) {
  return {
    id: d.id,
    key: d.key,
    name: d.name,
    kind: d.kind,
    config: JSON.parse(d.config) as unknown,
    createdBy: d.createdBy,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

const nowIso = (ctx: DatasourcesCtx) => new Date(ctx.clock.now()).toISOString();

export function findDataSource(ctx: DatasourcesCtx, key: string): DataSourceRow {
  const row = ctx.db.orm.select().from(datasources).where(eq(datasources.key, key)).get();
  if (!row) throw new NotFoundError(`Data source '${key}' not found`);
  return row;
}

/**
 * Validates the configuration for its kind. Referencing a secret tenant variable needs Admin: whoever writes the
 * configuration chooses where the secret is sent, and a Modeler may not read secrets.
 */
function checkedConfig(ctx: DatasourcesCtx, kind: string, config: unknown): string {
  const parsed = parseConfig(kind, config);
  const secrets = secretNamesAmong(ctx.db, referencedVariables(parsed));
  if (secrets.length && !isAdmin(ctx.actor)) {
    throw new ForbiddenError(
      `Only an Admin may configure a data source using secret variables (${secrets.join(", ")})`,
    );
  }
  return JSON.stringify(parsed);
}

export function listDataSources({ ctx }: { ctx: DatasourcesCtx; input?: undefined }) {
  return ctx.db.orm.select().from(datasources).orderBy(asc(datasources.key)).all().map(dataSourceView);
}

export function getDataSource({ ctx, input: { key } }: { ctx: DatasourcesCtx; input: { key: string } }) {
  return dataSourceView(findDataSource(ctx, key));
}

export function createDataSource({
  ctx,
  input,
}: {
  ctx: DatasourcesCtx;
  input: { key: string; name: string; kind: string; config?: unknown };
}) {
  const config = checkedConfig(ctx, input.kind, input.config);
  const at = nowIso(ctx);
  const row: DataSourceRow = {
    id: crypto.randomUUID(),
    key: input.key,
    name: input.name,
    kind: input.kind,
    config,
    createdBy: ctx.actor.userId,
    createdAt: at,
    updatedAt: at,
  };
  immediate(ctx.db.sqlite, () => {
    if (ctx.db.orm.select({ id: datasources.id }).from(datasources).where(eq(datasources.key, input.key)).get()) {
      throw new ConflictError(`A data source with key '${input.key}' already exists`);
    }
    ctx.db.orm.insert(datasources).values(row).run();
  });
  return dataSourceView(row);
}

/** PUT replaces name, kind and configuration; the key stays (forms name it). */
export function updateDataSource({
  ctx,
  input: { key, ...input },
}: {
  ctx: DatasourcesCtx;
  input: { key: string; name: string; kind: string; config?: unknown };
}) {
  const config = checkedConfig(ctx, input.kind, input.config);
  const at = nowIso(ctx);
  return immediate(ctx.db.sqlite, () => {
    const row = findDataSource(ctx, key);
    const next = { ...row, name: input.name, kind: input.kind, config, updatedAt: at };
    ctx.db.orm
      .update(datasources)
      .set({ name: next.name, kind: next.kind, config, updatedAt: at })
      .where(eq(datasources.id, row.id))
      .run();
    return dataSourceView(next);
  });
}

export function deleteDataSource({ ctx, input: { key } }: { ctx: DatasourcesCtx; input: { key: string } }): void {
  const row = findDataSource(ctx, key);
  ctx.db.orm.delete(datasources).where(eq(datasources.id, row.id)).run();
}
