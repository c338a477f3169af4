import type { Database } from "bun:sqlite";

/** The retrieval settings SUPER_ADMIN changes through /admin/rag-config. */
export interface RagSettings {
  /** Target chunk length in characters. */
  chunkSize: number;
  /** Characters of the previous chunk repeated at the start of the next. */
  chunkOverlap: number;
  /** Hits answered when the caller names no k. */
  topK: number;
  /** Weights of the full-text and the vector ranking in the reciprocal rank fusion. */
  ftsWeight: number;
  vectorWeight: number;
  /** The RRF constant: larger flattens the advantage of the first ranks. */
  rrfK: number;
  /** Chunks from which a base gets a coarse quantiser (IVF) and leaves the exact vector search. */
  ivfThreshold: number;
  /** Cells of the quantiser a query searches (more: better recall, slower); 0 turns it off (exact search). */
  ivfProbes: number;
}

export const RAG_DEFAULTS: RagSettings = {
  chunkSize: 1000,
  chunkOverlap: 150,
  topK: 5,
  ftsWeight: 1,
  vectorWeight: 1,
  rrfK: 60,
  ivfThreshold: 20_000,
  ivfProbes: 48,
};

/** Reads the stored settings (platform database) over the defaults. */
export function readRagSettings(db: Database): RagSettings {
  const row = db.query<{ settings: string }, []>("SELECT settings FROM rag_config WHERE id = 1").get();
  return { ...RAG_DEFAULTS, ...(row ? (JSON.parse(row.settings) as Partial<RagSettings>) : {}) };
}

export function writeRagSettings(db: Database, s: RagSettings, nowIso: string): void {
  db.query(
    "INSERT INTO rag_config (id, settings, updated_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
  ).run(JSON.stringify(s), nowIso);
}
