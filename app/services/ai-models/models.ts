import type { ModelEntry } from "../../ai/catalogue";
import { isModeler, type TenantCtx } from "../context";
import { ForbiddenError } from "../errors";

export type AiModelsCtx = TenantCtx<"ai">;

export interface AiModelsOut {
  /** false is the "no active model" state: AI features answer 409 and retrieval is full-text only. */
  active: boolean;
  chatModel: string | null;
  embeddingModel: string | null;
  models: ModelEntry[];
}

/** GET /a/ai/models: the model catalogue (Modeler); `svc_ai_model_list` reads the same. */
export function listAiModels({ ctx }: { ctx: AiModelsCtx; input?: unknown }): AiModelsOut {
  if (!isModeler(ctx.actor)) throw new ForbiddenError("This operation requires the MODELER or ADMIN role");
  return {
    active: ctx.ai.chatModel !== null,
    chatModel: ctx.ai.chatModel,
    embeddingModel: ctx.ai.embeddingModel,
    models: ctx.ai.catalogue(),
  };
}
