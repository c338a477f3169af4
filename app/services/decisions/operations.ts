import { applyJsonTable, evaluateDecision, toJsonTable, type JsonTable } from "../../../engine/dmn";
import { outputNamesOf } from "../../../engine/dmn/result-mapping";
import type { TenantCtx } from "../context";
import { NotFoundError } from "../errors";
import { modelOf } from "./tenant-models";
import { decisionVersions, latestDecision, latestDecisions, type DecisionDb, type DecisionRow } from "./store";
import { deleteDecision, deployDecisionXml } from "./deploy";
import { withDmnErrors } from "./dmn-errors";
import { findTemplate, listTemplates } from "../admin-dmn-templates/templates";
import { admitted } from "../admission";

export type DecisionsCtx = TenantCtx<"decisionStore" | "platformDb">;

const summary = (r: DecisionRow) => ({
  key: r.key,
  name: r.name,
  version: r.version,
  deploymentId: r.deploymentId,
  sourceTemplate: r.sourceTemplate,
  createdAt: r.createdAt,
});

/** GET /a/decisions: the latest version of each decision of the tenant. */
export function listTenantDecisions({ ctx }: { ctx: DecisionsCtx; input?: undefined }) {
  return latestDecisions(ctx, ctx.tenant.id).map(summary);
}

/** GET /a/decisions/{key}: latest version with its table (when it is one), XML and version history. */
export async function decisionDetail({ ctx, input: { key } }: { ctx: DecisionsCtx; input: { key: string } }) {
  const row = latestDecision(ctx, ctx.tenant.id, key);
  const model = await withDmnErrors(() => modelOf(ctx, ctx.tenant.id, row));
  let table: JsonTable | null = null;
  try {
    table = toJsonTable(model, key);
  } catch {
    table = null; // a literal expression or other boxed expression has no table view
  }
  const versions = decisionVersions(ctx, ctx.tenant.id, key).map((v) => ({
    version: v.version,
    deploymentId: v.deploymentId,
    createdAt: v.createdAt,
    createdBy: v.createdBy,
  }));
  return { ...summary(row), table, xml: row.xml, versions };
}

export const deployDecisions = admitted(deployDecisionsNow);
/** POST /a/decisions: every decision of the file gets a new version. */
async function deployDecisionsNow({ ctx, input: { xml } }: { ctx: DecisionsCtx; input: { xml: string } }) {
  const { decisions } = await deployDecisionXml(ctx, ctx.tenant.id, xml, {
    createdBy: ctx.actor.userId,
  });
  return { decisions };
}

export const updateDecision = admitted(updateDecisionNow);
/** PUT /a/decisions/{key}: a new version, from a new file or from a JSON edit of the latest table. */
async function updateDecisionNow({
  ctx,
  input: { key, ...change },
}: {
  ctx: DecisionsCtx;
  input: { key: string } & ({ xml: string } | { table: JsonTable });
}) {
  const latest = latestDecision(ctx, ctx.tenant.id, key);
  const xml = "xml" in change ? change.xml : await withDmnErrors(() => applyJsonTable(latest.xml, key, change.table));
  const { decisions } = await deployDecisionXml(ctx, ctx.tenant.id, xml, {
    createdBy: ctx.actor.userId,
    only: key,
  });
  if (!decisions.length) throw new NotFoundError(`The new file does not contain decision '${key}'`);
  return decisions[0];
}

export const evaluateTenantDecision = admitted(evaluateTenantDecisionNow);
/** POST /a/decisions/{key}/evaluate with the latest version. */
async function evaluateTenantDecisionNow({
  ctx,
  input: { key, variables },
}: {
  ctx: DecisionsCtx;
  input: { key: string; variables: Record<string, unknown> };
}) {
  return evaluateLatest(ctx, ctx.tenant.id, key, variables);
}

/** Evaluation used by the route and by business-rule tasks / decision tasks in the engines. */
export async function evaluateLatest(p: DecisionDb, tenantId: string, key: string, variables: Record<string, unknown>) {
  const model = await latestModel(p, tenantId, key);
  return withDmnErrors(() => evaluateDecision(model, key, variables));
}

/** Evaluation for an engine task: the result with the names of its outputs, which the result mappings need. */
export async function evaluateForEngine(
  p: DecisionDb,
  tenantId: string,
  key: string,
  variables: Record<string, unknown>,
) {
  const model = await latestModel(p, tenantId, key);
  const answer = await withDmnErrors(() => evaluateDecision(model, key, variables));
  return { ...answer, outputs: outputNamesOf(model, key) };
}

async function latestModel(p: DecisionDb, tenantId: string, key: string) {
  const row = latestDecision(p, tenantId, key);
  return withDmnErrors(() => modelOf(p, tenantId, row));
}

/** DELETE /a/decisions/{key} */
export async function removeDecision({ ctx, input: { key } }: { ctx: DecisionsCtx; input: { key: string } }) {
  if (!(await deleteDecision(ctx, ctx.tenant.id, key))) throw new NotFoundError(`Decision '${key}' not found`);
}

/** POST /a/decisions/from-template/{key}: the global template's decisions as new versions in this tenant. */
export async function cloneTemplate({
  ctx,
  input: { templateKey },
}: {
  ctx: DecisionsCtx;
  input: { templateKey: string };
}) {
  const t = findTemplate(ctx, templateKey);
  const { decisions } = await deployDecisionXml(ctx, ctx.tenant.id, t.xml, {
    createdBy: ctx.actor.userId,
    sourceTemplate: t.key,
  });
  return { decisions };
}

/**
 * GET /a/decision-templates (Modeler): the global DMN templates a Modeler may copy (POST
 * /a/decisions/from-template/{key}), without their XML; the copy is what the company then edits.
 */
export function offeredTemplates({ ctx }: { ctx: DecisionsCtx; input?: undefined }) {
  return listTemplates({ ctx }).map(({ key, name, description, updatedAt }) => ({ key, name, description, updatedAt }));
}
