import { z } from "@hono/zod-openapi";
import * as shared from "../../../services/agents/schemas";

export const AgentBody = shared.AgentBody.openapi("AgentInput");
export const AgentSchema = shared.AgentSchema.openapi("Agent");

export const KeyParam = z.object({ key: z.string().openapi({ param: { name: "key", in: "path" } }) });
export const StepBody = shared.StepBody.openapi("AgentStep");
export const AttachmentSchema = shared.AttachmentSchema.openapi("AgentAttachment");
export const SuggestBody = shared.SuggestBody.openapi("KnowledgeSuggestionRequest");
export const SuggestionSchema = shared.SuggestionSchema;
export const PlaygroundBody = z
  .object({ inputs: z.record(z.string(), z.unknown()).default({}) })
  .openapi("AgentPlaygroundRequest");
export const PlaygroundResult = z
  .object({
    outputs: z.record(z.string(), z.unknown()),
    toolCalls: z.array(z.object({ tool: z.string(), outcome: z.string(), detail: z.string().nullable() })),
    clearance: shared.Clearance,
  })
  .openapi("AgentPlaygroundResult");
