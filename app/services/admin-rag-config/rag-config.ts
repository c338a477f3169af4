import { RAG_DEFAULTS, type RagSettings, readRagSettings, writeRagSettings } from "../../ai/knowledge/rag-settings";
import type { PlatformCtx } from "../context";
import { BadRequestError, ForbiddenError } from "../errors";

export type RagConfigCtx = PlatformCtx<"platformDb" | "ai">;

/** What /admin/rag-config shows: the settings and which models back them (never the endpoint's key). */
export interface RagConfigOut extends RagSettings {
  embeddingModel: string | null;
  /** HYBRID with an embedding model, FTS otherwise. */
  retrievalMode: "HYBRID" | "FTS";
  vectorStore: "sqlite-vec";
}

function assertSa(ctx: RagConfigCtx) {
  if (!ctx.actor?.isSuperAdmin) throw new ForbiddenError("Only a SUPER_ADMIN reads or changes the RAG configuration");
}

const view = (ctx: RagConfigCtx, s: RagSettings): RagConfigOut => ({
  ...s,
  embeddingModel: ctx.ai.embeddingModel,
  retrievalMode: ctx.ai.embeddingModel ? "HYBRID" : "FTS",
  vectorStore: "sqlite-vec",
});

/** GET /admin/rag-config */
export function getRagConfig({ ctx }: { ctx: RagConfigCtx; input?: unknown }): RagConfigOut {
  assertSa(ctx);
  return view(ctx, readRagSettings(ctx.platformDb.$client));
}

/** PUT /admin/rag-config: changes any of the settings; the rest keep their values. New chunking applies to the next indexing. */
export function updateRagConfig({ ctx, input }: { ctx: RagConfigCtx; input: Partial<RagSettings> }): RagConfigOut {
  assertSa(ctx);
  const next: RagSettings = { ...readRagSettings(ctx.platformDb.$client) };
  for (const key of Object.keys(RAG_DEFAULTS) as (keyof RagSettings)[])
    if (input[key] !== undefined) next[key] = input[key] as number;
  if (next.chunkOverlap >= next.chunkSize)
    throw new BadRequestError("chunkOverlap must be smaller than chunkSize", [
      { field: "chunkOverlap", message: "must be smaller than chunkSize" },
    ]);
  if (next.ftsWeight + next.vectorWeight <= 0)
    throw new BadRequestError("At least one of ftsWeight and vectorWeight must be positive", [
      { field: "ftsWeight", message: "ftsWeight + vectorWeight must be positive" },
    ]);
  writeRagSettings(ctx.platformDb.$client, next, new Date(ctx.clock.now()).toISOString());
  return view(ctx, next);
}
