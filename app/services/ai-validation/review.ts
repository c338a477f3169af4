import { z } from "zod";
import type { StructuralFinding } from "../../../engine/model/bpmn";
import { callerOf } from "../ai-models/caller";
import { bpmnBlock, jsonBlock } from "../ai-models/prompts";
import { isModeler, type TenantCtx } from "../context";
import { ForbiddenError } from "../errors";
import { validateProcess } from "../definitions/validate";
import { admitted } from "../admission";

export type AiValidationCtx = TenantCtx<"processRuntime" | "ai" | "admission">;

/** The model's structured answer; the route declares the same schema in the OpenAPI description. */
export const Review = z.object({
  summary: z.string(),
  issues: z.array(
    z.object({
      severity: z.enum(["error", "warning", "info"]),
      elementId: z.string().nullable(),
      message: z.string(),
    }),
  ),
});
export type SemanticReview = z.infer<typeof Review>;

export interface BpmnReviewOut {
  /** The structural checks (the same as POST /a/definitions/validate and `svc_process_validate`). */
  findings: StructuralFinding[];
  warnings: string[];
  /** The model's semantic review. */
  review: SemanticReview;
  model: string | null;
}

const SYSTEM = `You review BPMN 2.0 process models for their meaning, not their syntax. Structural problems were
already found by a checker and are listed; do not repeat them. Look for: steps in an order that makes no business
sense, decisions whose conditions overlap or leave cases uncovered, missing approvals or notifications a reader would
expect, tasks without a clear owner, error and timeout paths that are missing, names that do not say what a step does.
Answer JSON {"summary": "...", "issues": [{"severity": "error"|"warning"|"info", "elementId": "<id or null>",
"message": "..."}]} in the language of the model's names; an empty issues list when the model is sound.`;

export const reviewBpmn = admitted(reviewBpmnNow);
/**
 * POST /a/ai-validation/bpmn (Modeler): the structural findings plus the model's semantic review. 400 for XML that is
 * not BPMN (before any model call), 409 with no active model, 402 when the tenant quota is exhausted or was never
 * configured or the user's ceiling is reached; the usage row carries the user id.
 */
async function reviewBpmnNow({ ctx, input }: { ctx: AiValidationCtx; input: { xml: string } }): Promise<BpmnReviewOut> {
  if (!isModeler(ctx.actor)) throw new ForbiddenError("This operation requires the MODELER or ADMIN role");
  const structural = await validateProcess({ ctx, input });
  const prompt = [bpmnBlock(input.xml), jsonBlock("Structural findings already reported", structural.findings)].join(
    "\n\n",
  );
  const review = await ctx.ai.generateObject(callerOf(ctx, "ai-validation"), { system: SYSTEM, prompt }, Review);
  return { findings: structural.findings, warnings: structural.warnings, review, model: ctx.ai.chatModel };
}
