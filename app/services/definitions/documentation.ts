import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { z } from "zod";
import { processDocs } from "../../../db/tenant/schema";
import { callerOf } from "../ai-models/caller";
import { bpmnBlock, clip, MAX_PROMPT_TEXT_CHARS } from "../ai-models/prompts";
import { isManager, isModeler, type TenantCtx } from "../context";
import { BadRequestError, ForbiddenError } from "../errors";

export type ProcessDocCtx = TenantCtx<"processRuntime" | "db">;
export type ProposeDocCtx = TenantCtx<"processRuntime" | "db" | "ai">;

/** Longest description stored (a documentation page, not a file store). */
export const MAX_DESCRIPTION_CHARS = 100_000;

export interface ProcessDocOut {
  key: string;
  /** null: the process has no description yet. */
  description: string | null;
  updatedBy: string | null;
  updatedAt: string | null;
}

const orm = (ctx: ProcessDocCtx) => drizzle(ctx.db.sqlite);

/** The definition must exist in the caller's tenant: another tenant's key answers 404 like an unknown one. */
const requireDefinition = (ctx: ProcessDocCtx, key: string) => ctx.processRuntime.getDefinition(ctx.tenant.id, key);

/** GET /a/definitions/{key}/documentation (Auth), MCP's `svc_process_doc_get`. */
export function getProcessDoc({ ctx, input }: { ctx: ProcessDocCtx; input: { key: string } }): ProcessDocOut {
  requireDefinition(ctx, input.key);
  const row = orm(ctx).select().from(processDocs).where(eq(processDocs.processKey, input.key)).get();
  return {
    key: input.key,
    description: row?.description ?? null,
    updatedBy: row?.updatedBy ?? null,
    updatedAt: row?.updatedAt ?? null,
  };
}

const requireManager = (ctx: ProcessDocCtx) => {
  if (!isManager(ctx.actor))
    throw new ForbiddenError("Writing process documentation requires the MANAGER or ADMIN role");
};

/** PUT /a/definitions/{key}/documentation {description} (Manager): creates or replaces the description. */
export function putProcessDoc({
  ctx,
  input,
}: {
  ctx: ProcessDocCtx;
  input: { key: string; description: string };
}): ProcessDocOut {
  requireManager(ctx);
  requireDefinition(ctx, input.key);
  const description = input.description.trim();
  if (!description)
    throw new BadRequestError("description must not be blank", [
      { field: "description", message: "must not be blank" },
    ]);
  if (description.length > MAX_DESCRIPTION_CHARS)
    throw new BadRequestError(`description is longer than ${MAX_DESCRIPTION_CHARS} characters`, [
      { field: "description", message: `at most ${MAX_DESCRIPTION_CHARS} characters` },
    ]);
  const row = { description, updatedBy: ctx.actor.userId, updatedAt: new Date(ctx.clock.now()).toISOString() };
  orm(ctx)
    .insert(processDocs)
    .values({ processKey: input.key, ...row })
    .onConflictDoUpdate({ target: processDocs.processKey, set: row })
    .run();
  return { key: input.key, ...row };
}

/** DELETE /a/definitions/{key}/documentation (Manager): 204 whether or not a description existed. */
export function deleteProcessDoc({ ctx, input }: { ctx: ProcessDocCtx; input: { key: string } }): void {
  requireManager(ctx);
  requireDefinition(ctx, input.key);
  orm(ctx).delete(processDocs).where(eq(processDocs.processKey, input.key)).run();
}

const Proposal = z.object({ description: z.string() });

const SYSTEM = `You write the documentation of business processes modelled in BPMN 2.0 for the people who run them.
From the model, describe in plain prose: the purpose of the process, who takes part (lanes, candidate groups), the
steps in order, the decisions and their conditions, the outcomes (end events), timers and error paths. Do not invent
what the model does not say. Answer JSON {"description": "<markdown text>"} in the language of the model's names.`;

/**
 * POST /a/definitions/{key}/documentation/propose (Modeler), MCP's `svc_process_doc_propose`: the model proposes a
 * description from the BPMN (`xml` when given, the latest deployed version otherwise); nothing is written. 409 with
 * no active model, 402 over the quota or when the tenant quota was never configured.
 */
export async function proposeProcessDoc({ ctx, input }: { ctx: ProposeDocCtx; input: { key: string; xml?: string } }) {
  if (!isModeler(ctx.actor)) throw new ForbiddenError("This operation requires the MODELER or ADMIN role");
  const current = getProcessDoc({ ctx, input: { key: input.key } });
  const xml = input.xml?.trim() ? input.xml : ctx.processRuntime.definitionXml(ctx.tenant.id, input.key);
  const prompt = [
    `Process key: ${input.key}`,
    current.description
      ? `Current description (improve it, keep what is still true):\n${clip(current.description, MAX_PROMPT_TEXT_CHARS)}`
      : "",
    bpmnBlock(xml),
  ]
    .filter(Boolean)
    .join("\n\n");
  const out = await ctx.ai.generateObject(callerOf(ctx, "process-doc"), { system: SYSTEM, prompt }, Proposal);
  return {
    key: input.key,
    description: out.description.trim(),
    current: current.description,
    source: input.xml?.trim() ? ("xml" as const) : ("deployed" as const),
    model: ctx.ai.chatModel,
  };
}
