import { knowledgeIndex } from "../../ai/knowledge/index-store";
import { type RagSettings, readRagSettings } from "../../ai/knowledge/rag-settings";
import { type Retrieval, type RetrievalHit, retrieve } from "../../ai/knowledge/retrieve";
import { callerOf } from "../ai-models/caller";
import { BadRequestError, NotFoundError } from "../errors";
import { assertKnowledgeRole, type BaseHandle, findBase, globalSqlite, type KbCtx, processBase } from "./access";

const STALE = "The base has no vectors of the configured embedding model (reindex it): full-text search only";

type QueryVector = { vector: number[] | null; note: string | null };

/** The query's vector (one embedding call, charged to the caller), or why retrieval is full-text only. */
async function embedQuery(ctx: KbCtx, query: string, feature: string): Promise<QueryVector> {
  if (!ctx.ai.embeddingModel) return { vector: null, note: "No embedding model is configured: full-text search only" };
  try {
    const [vector] = await ctx.ai.embed(callerOf(ctx, feature), [query]);
    return { vector, note: null };
  } catch (e) {
    const note = `The embedding model could not be used (${e instanceof Error ? e.message : e}): full-text search only`;
    return { vector: null, note };
  }
}

/** One base: hybrid when it holds vectors of the configured model, else full-text only (the answer says why). */
function searchWith(ctx: KbCtx, h: BaseHandle, query: string, k: number, settings: RagSettings, q: QueryVector) {
  const current = h.base.embedding_model === ctx.ai.embeddingModel;
  const vector = current ? q.vector : null;
  const note = ctx.ai.embeddingModel && !current ? STALE : q.note;
  return retrieve(knowledgeIndex(h.db), h.base.id, query, k, settings, vector, note);
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
export async function searchBase(ctx: KbCtx, h: BaseHandle, rawQuery: string, k?: number): Promise<Retrieval> {
  const query = rawQuery.trim();
  if (!query) throw new BadRequestError("query is required", [{ field: "query", message: "must not be blank" }]);
  const settings = readRagSettings(globalSqlite(ctx));
  const needsVector = !!ctx.ai.embeddingModel && h.base.embedding_model === ctx.ai.embeddingModel;
  // embedQuery answers at once (with its note) when no embedding model is configured.
  const q =
    needsVector || !ctx.ai.embeddingModel ? await embedQuery(ctx, query, "kb-search") : { vector: null, note: null };
  return searchWith(ctx, h, query, k ?? settings.topK, settings, q);
}

/**
 * The knowledge linked to a process (its linked bases, shared or global, and its own documents), searched for
 * `query`: the best `k` passages of each, best first. For features acting on a process the caller can already see
 * (ai-suggest), so no knowledge role is asked; one embedding call serves every base.
 */
export async function searchProcessKnowledge(
  ctx: KbCtx,
  definitionKey: string,
  query: string,
  k?: number,
): Promise<RetrievalHit[]> {
  const ids = ctx.db.sqlite
    .query<{ base_id: string }, [string]>("SELECT base_id FROM kb_process_links WHERE definition_key = ?")
    .all(definitionKey)
    .map((r) => r.base_id);
  // A link to a global base SUPER_ADMIN has since deleted is skipped, not an error for the person filling a form.
  const handles = ids.flatMap((id) => {
    try {
      return [findBase(ctx, id)];
    } catch (e) {
      if (e instanceof NotFoundError) return [];
      throw e;
    }
  });
  const own = processBase(ctx, definitionKey, false);
  if (own) handles.push(own);
  if (!handles.length || !query.trim()) return [];
  const settings = readRagSettings(globalSqlite(ctx));
  const q = await embedQuery(ctx, query, "kb-search");
  return handles
    .flatMap((h) => searchWith(ctx, h, query, k ?? settings.topK, settings, q).hits)
    .sort((a, b) => b.score - a.score);
}
