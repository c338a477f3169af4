import { knowledgeIndex } from "../../ai/knowledge/index-store";
import { readRagSettings } from "../../ai/knowledge/rag-settings";
import { type Retrieval, retrieve } from "../../ai/knowledge/retrieve";
import type { AiCaller } from "../../ai/usage";
import { BadRequestError } from "../errors";
import { assertKnowledgeRole, type BaseHandle, findBase, globalSqlite, type KbCtx } from "./access";

/** Who a model call made for this ctx is charged to (a user, an API key, or the system for jobs). */
export function callerOf(ctx: KbCtx, feature: string): AiCaller {
  const a = ctx.actor;
  const kind = a.kind === "user" ? "USER" : a.kind === "apiKey" ? "API_KEY" : "SYSTEM";
  return { tenantId: ctx.tenant.id, kind, userId: a.userId, apiKeyId: a.apiKeyId, feature };
}

/**
 * POST /a/knowledge-bases/{id}/search {query, k}: hybrid (FTS5 and vectors fused by reciprocal rank) when the base's
 * vectors match the configured embedding model, else full-text only, and the answer says why.
 */
export async function searchKnowledgeBase({
  ctx,
  input,
}: {
  ctx: KbCtx;
  input: { id: string; query: string; k?: number };
}): Promise<Retrieval> {
  assertKnowledgeRole(ctx);
  return searchBase(ctx, findBase(ctx, input.id), input.query, input.k);
}

/** Retrieval from one base the caller may read (the search route, an agent's kb_retrieve tool). */
export async function searchBase(ctx: KbCtx, h: BaseHandle, rawQuery: string, k0?: number): Promise<Retrieval> {
  const query = rawQuery.trim();
  if (!query) throw new BadRequestError("query is required", [{ field: "query", message: "must not be blank" }]);
  const input = { k: k0 };
  const settings = readRagSettings(globalSqlite(ctx));
  const k = input.k ?? settings.topK;
  let vector: number[] | null = null;
  let note: string | null = null;
  if (!ctx.ai.embeddingModel) note = "No embedding model is configured: full-text search only";
  else if (h.base.embedding_model !== ctx.ai.embeddingModel)
    note = "The base has no vectors of the configured embedding model (reindex it): full-text search only";
  else {
    try {
      [vector] = await ctx.ai.embed(callerOf(ctx, "kb-search"), [query]);
    } catch (e) {
      note = `The embedding model could not be used (${e instanceof Error ? e.message : e}): full-text search only`;
    }
  }
  return retrieve(knowledgeIndex(h.db), h.base.id, query, k, settings, vector, note);
}
