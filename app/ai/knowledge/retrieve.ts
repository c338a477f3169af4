import type { RagSettings } from "./rag-settings";
import type { Hit, KnowledgeIndex } from "./index-store";

export interface RetrievalHit {
  chunkId: number;
  score: number;
  snippet: string;
  documentId: string;
  fileName: string;
  location: string | null;
  startOffset: number;
  endOffset: number;
}

export interface Retrieval {
  /** HYBRID: full-text and vector rankings fused; FTS: full-text only (no embedding model, or it could not be used). */
  mode: "HYBRID" | "FTS";
  /** Why the answer is full-text only, when it is. */
  note: string | null;
  hits: RetrievalHit[];
}

/**
 * Reciprocal rank fusion: each ranking adds weight / (rrfK + rank) to a chunk, so a chunk near the top of both wins
 * and neither score scale (BM25, cosine) has to be calibrated against the other.
 */
export function fuse(rankings: { hits: Hit[]; weight: number }[], rrfK: number): Hit[] {
  const score = new Map<number, number>();
  for (const { hits, weight } of rankings)
    hits.forEach((h, rank) => score.set(h.chunkId, (score.get(h.chunkId) ?? 0) + weight / (rrfK + rank + 1)));
  return [...score.entries()].map(([chunkId, s]) => ({ chunkId, score: s })).sort((a, b) => b.score - a.score);
}

/** A window of the chunk around the first of the query's words it contains. */
export function snippetOf(text: string, query: string, width = 240): string {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2);
  const lower = text.toLowerCase();
  const at = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0);
  const from = at.length ? Math.max(0, Math.min(...at) - width / 3) : 0;
  const s = text
    .slice(from, from + width)
    .replace(/\s+/g, " ")
    .trim();
  return `${from > 0 ? "…" : ""}${s}${from + width < text.length ? "…" : ""}`;
}

/** Searches one base: hybrid when a query vector is given, full-text only otherwise (with the reason in `note`). */
export function retrieve(
  index: KnowledgeIndex,
  baseId: string,
  query: string,
  k: number,
  settings: RagSettings,
  vector: number[] | null,
  note: string | null,
): Retrieval {
  // Each ranking looks deeper than k so the fusion has candidates to reorder.
  const depth = Math.max(k * 4, 20);
  const text = index.searchText(baseId, query, depth);
  const fused = vector
    ? fuse(
        [
          { hits: text, weight: settings.ftsWeight },
          { hits: index.searchVectorNearest(baseId, vector, depth, settings.ivfProbes), weight: settings.vectorWeight },
        ],
        settings.rrfK,
      )
    : text;
  const top = fused.slice(0, k);
  const rows = index.chunks(top.map((h) => h.chunkId));
  return {
    mode: vector ? "HYBRID" : "FTS",
    note: vector ? null : note,
    hits: top.flatMap((h) => {
      const r = rows.get(h.chunkId);
      return r
        ? [
            {
              chunkId: r.id,
              score: h.score,
              snippet: snippetOf(r.text, query),
              documentId: r.documentId,
              fileName: r.fileName,
              location: r.location,
              startOffset: r.startOffset,
              endOffset: r.endOffset,
            },
          ]
        : [];
    }),
  };
}
