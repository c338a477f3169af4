import { asc, count, eq } from "drizzle-orm";
import { processTemplateSubscriptions as subs, processTemplates } from "../../../db/platform/schema";
import type { PlatformCtx } from "../context";
import { BadRequestError, ConflictError, NotFoundError } from "../errors";
import { RECEIVING, replicate, type TemplateRow } from "../process-templates/replicate";

/** Global process templates: the platform tables, the runtime (validation, replication) and the tenant directory. */
export type ProcessTemplatesCtx = PlatformCtx<"platformDb" | "processRuntime" | "tenants">;

export function templateView(ctx: Pick<ProcessTemplatesCtx, "platformDb">, t: TemplateRow) {
  const subscribers = ctx.platformDb.select({ n: count() }).from(subs).where(eq(subs.templateKey, t.key)).get()?.n;
  return {
    key: t.key,
    name: t.name,
    xml: t.xml,
    enabled: t.enabled,
    version: t.version,
    subscribers: subscribers ?? 0,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt ?? t.createdAt,
  };
}

/** The template row, or 404. */
export function findProcessTemplate(ctx: Pick<ProcessTemplatesCtx, "platformDb">, key: string): TemplateRow {
  const t = ctx.platformDb.select().from(processTemplates).where(eq(processTemplates.key, key)).get();
  if (!t) throw new NotFoundError(`Process template '${key}' not found`);
  return t;
}

/** A template holds one executable process whose id is the template's key (the key tenants deploy it under). */
async function checkXml(ctx: ProcessTemplatesCtx, key: string, xml: string) {
  const { processes } = await ctx.processRuntime.validate(xml);
  if (processes.length !== 1 || processes[0] !== key) {
    throw new BadRequestError(`A process template holds exactly one executable process, with the id '${key}'`, [
      { field: "xml", message: `found: ${processes.join(", ") || "none"}` },
    ]);
  }
}

/** Applies the template to every subscribing tenant in service; reports what happened per outcome. */
async function replicateToAll(ctx: ProcessTemplatesCtx, t: TemplateRow) {
  const outcome = { APPLIED: 0, UP_TO_DATE: 0, DIVERGED: 0 };
  const rows = ctx.platformDb.select().from(subs).where(eq(subs.templateKey, t.key)).all();
  for (const s of rows) {
    if (!RECEIVING.includes(ctx.tenants.get(s.tenantId)?.status ?? "")) continue;
    outcome[await replicate(ctx, s.tenantId, t)]++;
  }
  return outcome;
}

/** GET /admin/process-templates */
export function listProcessTemplates({ ctx }: { ctx: ProcessTemplatesCtx; input?: undefined }) {
  const rows = ctx.platformDb.select().from(processTemplates).orderBy(asc(processTemplates.key)).all();
  return rows.map((t) => templateView(ctx, t));
}

/** POST /admin/process-templates: version 1; tenants subscribe to it (new tenants are subscribed when it is enabled). */
export async function createProcessTemplate({
  ctx,
  input,
}: {
  ctx: ProcessTemplatesCtx;
  input: { key: string; name: string; xml: string; enabled?: boolean };
}) {
  if (ctx.platformDb.select().from(processTemplates).where(eq(processTemplates.key, input.key)).get())
    throw new ConflictError(`Process template '${input.key}' already exists`);
  await checkXml(ctx, input.key, input.xml);
  const now = new Date(ctx.clock.now()).toISOString();
  const row: TemplateRow = { ...input, enabled: input.enabled ?? true, version: 1, createdAt: now, updatedAt: now };
  ctx.platformDb.insert(processTemplates).values(row).run();
  return templateView(ctx, row);
}

/**
 * PUT /admin/process-templates/{key}: a new XML is a new template version, deployed at once into every subscribing
 * tenant whose subscription has not diverged; `replication` counts the outcomes.
 */
export async function updateProcessTemplate({
  ctx,
  input: { key, ...input },
}: {
  ctx: ProcessTemplatesCtx;
  input: { key: string; name?: string; xml?: string; enabled?: boolean };
}) {
  const t = findProcessTemplate(ctx, key);
  const newXml = input.xml !== undefined && input.xml !== t.xml;
  if (newXml) await checkXml(ctx, key, input.xml!);
  const next: TemplateRow = {
    ...t,
    name: input.name ?? t.name,
    enabled: input.enabled ?? t.enabled,
    xml: input.xml ?? t.xml,
    version: newXml ? t.version + 1 : t.version,
    updatedAt: new Date(ctx.clock.now()).toISOString(),
  };
  ctx.platformDb.update(processTemplates).set(next).where(eq(processTemplates.key, key)).run();
  const replication = newXml ? await replicateToAll(ctx, next) : { APPLIED: 0, UP_TO_DATE: 0, DIVERGED: 0 };
  return { ...templateView(ctx, next), replication };
}

/** DELETE /admin/process-templates/{key}: subscriptions end; every tenant keeps the definitions it got as its own. */
export function deleteProcessTemplate({ ctx, input: { key } }: { ctx: ProcessTemplatesCtx; input: { key: string } }) {
  findProcessTemplate(ctx, key);
  ctx.platformDb.transaction((tx) => {
    tx.delete(subs).where(eq(subs.templateKey, key)).run();
    tx.delete(processTemplates).where(eq(processTemplates.key, key)).run();
  });
}
