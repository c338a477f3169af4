import { z } from "@hono/zod-openapi";

export const PlanItemSchema = z
  .object({
    id: z.string(),
    elementId: z.string(),
    name: z.string(),
    type: z.string(),
    state: z.string().openapi({
      description: "AVAILABLE, ENABLED, DISABLED, ACTIVE, COMPLETED, TERMINATED, FAILED or WAITING_FOR_REPETITION",
    }),
    stageId: z.string().optional(),
    actions: z.array(z.enum(["START", "DISABLE", "ENABLE", "TRIGGER", "COMPLETE_STAGE", "REACTIVATE"])),
  })
  .openapi("PlanItem");

export const MilestoneSchema = z
  .object({ id: z.string(), elementId: z.string(), name: z.string(), reachedAt: z.string() })
  .openapi("Milestone");

export const CaseParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) });
export const PlanItemParam = CaseParam.extend({
  planItemId: z.string().openapi({ param: { name: "planItemId", in: "path" } }),
});
export const PlanItemsQuery = z.object({
  includeEnded: z.enum(["true", "false"]).optional().openapi({ description: "also list ended plan items (history)" }),
});
