import { asc, eq } from "drizzle-orm";
import { dmnTemplates } from "../../../db/platform/schema";
import { listDecisions, parseDmn } from "../../../engine/dmn";
import type { PlatformCtx } from "../context";
import type { DecisionDb } from "../decisions/store";
import { ConflictError, NotFoundError, BadRequestError } from "../errors";
import { withDmnErrors } from "../decisions/dmn-errors";
import { deployDecisionXml } from "../decisions/deploy";

type TemplateRow = typeof dmnTemplates.$inferSelect;

/** The global templates live in the platform database. */
export type DmnTemplatesCtx = PlatformCtx<"platformDb">;

export const templateView = (t: TemplateRow) => ({
  key: t.key,
  name: t.name,
  description: t.description,
  xml: t.xml,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

export function listTemplates({ ctx: p }: { ctx: DmnTemplatesCtx; input?: undefined }) {
  return p.platformDb.select().from(dmnTemplates).orderBy(asc(dmnTemplates.key)).all().map(templateView);
}

/** The template row, or 404. */
export function findTemplate(p: Pick<DmnTemplatesCtx, "platformDb">, key: string): TemplateRow {
  const t = p.platformDb.select().from(dmnTemplates).where(eq(dmnTemplates.key, key)).get();
  if (!t) throw new NotFoundError(`DMN template '${key}' not found`);
  return t;
}

async function checkXml(xml: string) {
  const model = await withDmnErrors(() => parseDmn(xml));
  if (!listDecisions(model).length) throw new BadRequestError("The DMN file contains no decision");
}

/** POST /admin/dmn-templates */
export async function createTemplate({
  ctx: p,
  input,
}: {
  ctx: DmnTemplatesCtx;
  input: { key: string; name: string; description?: string | null; xml: string };
}) {
  if (p.platformDb.select().from(dmnTemplates).where(eq(dmnTemplates.key, input.key)).get()) {
    throw new ConflictError(`DMN template '${input.key}' already exists`);
  }
  await checkXml(input.xml);
  const now = new Date(p.clock.now()).toISOString();
  const row: TemplateRow = {
    key: input.key,
    name: input.name,
    description: input.description ?? null,
    xml: input.xml,
    createdAt: now,
    updatedAt: now,
  };
  p.platformDb.insert(dmnTemplates).values(row).run();
  return templateView(row);
}

/** PUT /admin/dmn-templates/{key}: tenants keep their copies; new tenants and clones get the new content. */
export async function updateTemplate({
  ctx: p,
  input: { key, ...input },
}: {
  ctx: DmnTemplatesCtx;
  input: { key: string; name?: string; description?: string | null; xml?: string };
}) {
  const t = findTemplate(p, key);
  if (input.xml !== undefined) await checkXml(input.xml);
  const changes = {
    name: input.name ?? t.name,
    description: input.description !== undefined ? input.description : t.description,
    xml: input.xml ?? t.xml,
    updatedAt: new Date(p.clock.now()).toISOString(),
  };
  p.platformDb.update(dmnTemplates).set(changes).where(eq(dmnTemplates.key, key)).run();
  return templateView({ ...t, ...changes });
}

/** DELETE /admin/dmn-templates/{key}: tenant copies stay (they are the tenant's own decisions now). */
export function deleteTemplate({ ctx: p, input: { key } }: { ctx: DmnTemplatesCtx; input: { key: string } }) {
  findTemplate(p, key);
  p.platformDb.delete(dmnTemplates).where(eq(dmnTemplates.key, key)).run();
}

/** Provisioning seeder: copies every global template into the tenant once, each copy tagged with the tenant. */
export function dmnTemplateSeeder(p: DecisionDb & Pick<DmnTemplatesCtx, "platformDb">) {
  return async (tenantId: string) => {
    for (const t of p.platformDb.select().from(dmnTemplates).all()) {
      if (p.decisionStore.hasTemplateCopy(tenantId, t.key)) continue;
      await deployDecisionXml(p, tenantId, t.xml, { createdBy: null, sourceTemplate: t.key });
    }
  };
}
