import { and, asc, eq } from "drizzle-orm";
import { robots } from "../../../db/platform/schema";
import type { TenantCtx } from "../context";
import { ConflictError, NotFoundError } from "../errors";
import { resolveTenantVariable } from "../tenant-variables/resolve";
import { checkConfig, checkParameterDefs, type ParameterDef, type RobotConfig } from "./parameters";

export type RobotsCtx = TenantCtx<"platformDb">;
export type RobotRow = typeof robots.$inferSelect;

export interface RobotInput {
  key: string;
  name: string;
  description?: string | null;
  parameters?: ParameterDef[];
}

export const parametersOf = (r: RobotRow) => JSON.parse(r.parameters) as ParameterDef[];
export const configOf = (r: RobotRow) => JSON.parse(r.config) as RobotConfig;

export function robotView(r: RobotRow) {
  return {
    key: r.key,
    name: r.name,
    description: r.description,
    parameters: parametersOf(r),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The tenant's robot of that key, or 404 (another tenant's key included). */
export function robotOf(ctx: RobotsCtx, key: string): RobotRow {
  const row = ctx.platformDb
    .select()
    .from(robots)
    .where(and(eq(robots.tenantId, ctx.tenant.id), eq(robots.key, key)))
    .get();
  if (!row) throw new NotFoundError(`Robot ${key} not found`);
  return row;
}

export function listRobots({ ctx }: { ctx: RobotsCtx; input?: undefined }) {
  return ctx.platformDb
    .select()
    .from(robots)
    .where(eq(robots.tenantId, ctx.tenant.id))
    .orderBy(asc(robots.key))
    .all()
    .map(robotView);
}

export function getRobot({ ctx, input }: { ctx: RobotsCtx; input: { key: string } }) {
  return robotView(robotOf(ctx, input.key));
}

/** POST /a/robots: a key is unique within the tenant (409 otherwise); the configuration starts empty. */
export function createRobot({ ctx, input }: { ctx: RobotsCtx; input: RobotInput }) {
  const now = new Date(ctx.clock.now()).toISOString();
  const row: RobotRow = {
    id: crypto.randomUUID(),
    tenantId: ctx.tenant.id,
    key: input.key,
    name: input.name,
    description: input.description ?? null,
    parameters: JSON.stringify(checkParameterDefs(input.parameters ?? [])),
    config: "{}",
    createdAt: now,
    updatedAt: now,
  };
  const taken = ctx.platformDb
    .select({ id: robots.id })
    .from(robots)
    .where(and(eq(robots.tenantId, ctx.tenant.id), eq(robots.key, input.key)))
    .get();
  if (taken) throw new ConflictError(`A robot with key '${input.key}' already exists`);
  ctx.platformDb.insert(robots).values(row).run();
  return robotView(row);
}

/** PUT /a/robots/{key}: name, description and parameters; values of parameters no longer defined are dropped. */
export function updateRobot({ ctx, input }: { ctx: RobotsCtx; input: Omit<RobotInput, "key"> & { key: string } }) {
  const row = robotOf(ctx, input.key);
  const defs = checkParameterDefs(input.parameters ?? []);
  const kept = Object.fromEntries(Object.entries(configOf(row)).filter(([k]) => defs.some((d) => d.name === k)));
  const changes = {
    name: input.name,
    description: input.description ?? null,
    parameters: JSON.stringify(defs),
    config: JSON.stringify(kept),
    updatedAt: new Date(ctx.clock.now()).toISOString(),
  };
  ctx.platformDb.update(robots).set(changes).where(eq(robots.id, row.id)).run();
  return robotView({ ...row, ...changes });
}

export function deleteRobot({ ctx, input }: { ctx: RobotsCtx; input: { key: string } }) {
  const row = robotOf(ctx, input.key);
  ctx.platformDb.delete(robots).where(eq(robots.id, row.id)).run();
}

/** GET /a/robots/{key}/config: the values; a secret parameter shows only the variable it refers to. */
export function getRobotConfig({ ctx, input }: { ctx: RobotsCtx; input: { key: string } }) {
  const row = robotOf(ctx, input.key);
  return { key: row.key, values: configOf(row) };
}

/** PUT /a/robots/{key}/config: replaces the values, checked against the parameter definitions and tenant variables. */
export function putRobotConfig({
  ctx,
  input,
}: {
  ctx: TenantCtx<"platformDb" | "db">;
  input: { key: string; values: RobotConfig };
}) {
  const row = robotOf(ctx, input.key);
  const exists = (name: string) => resolveTenantVariable(ctx.db, name) !== null;
  const values = checkConfig(parametersOf(row), input.values, exists);
  const changes = { config: JSON.stringify(values), updatedAt: new Date(ctx.clock.now()).toISOString() };
  ctx.platformDb.update(robots).set(changes).where(eq(robots.id, row.id)).run();
  return { key: row.key, values };
}
