import type { Database } from "bun:sqlite";
import * as sqliteVec from "sqlite-vec";
import type { Chunk } from "./chunker";
import { ivfStore } from "./ivf-store";

const loaded = new WeakSet<Database>();

/** Loads sqlite-vec into a connection once and creates the full-text table (virtual tables drizzle cannot describe). */
function prepare(db: Database): void {
  if (loaded.has(db)) return;
  sqliteVec.load(db);
  // The chunk id is the rowid of both indexes; porter stemming lets "indexing" find "indexed".
  db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS kb_fts USING fts5(text, base_id UNINDEXED, tokenize = 'porter unicode61')",
  );
  loaded.add(db);
}

const vecTable = (dims: number) => `kb_vec_${dims}`;
/** Candidates per wanted hit kept by the binary pass before the exact rerank. */
const RERANK = 10;
const blob = (v: number[]) => new Uint8Array(new Float32Array(v).buffer);

export interface Hit {
  chunkId: number;
  score: number;
}

/** Turns free text into an FTS5 query of its words joined by OR (no operator of the user's text reaches FTS5). */
export function ftsQuery(text: string): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1);
  return words.length ? [...new Set(words)].map((w) => `"${w}"`).join(" OR ") : null;
}

/**
 * The chunk indexes of one database (a tenant's file, or the platform database for global bases): the chunk rows,
 * the FTS5 table and, per vector width, a vec0 table partitioned by base. Writes to the three go in one transaction.
 */
export function knowledgeIndex(db: Database) {
  prepare(db);
  const ensureVec = (dims: number) =>
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${vecTable(dims)} USING vec0(base_id text partition key, embedding float[${dims}] distance_metric=cosine, bin bit[${dims}])`,
    );
  const vecTables = () =>
    db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'kb_vec_%'")
      .all()
      .map((r) => r.name)
      .filter((n) => /^kb_vec_\d+$/.test(n));

  const ivf = ivfStore(db);
  const removeChunks = (where: "document_id" | "base_id", id: string) => {
    const rows = db
      .query<{ id: number; baseId: string }, [string]>(`SELECT id, base_id baseId FROM kb_chunks WHERE ${where} = ?`)
      .all(id);
    const ids = rows.map((r) => r.id);
    if (where === "base_id") ivf.drop(ivf.rowsOf(id));
    else if (rows.length) ivf.removeChunks(rows[0].baseId, ids);
    if (!ids.length) return 0;
    const delFts = db.query("DELETE FROM kb_fts WHERE rowid = ?");
    const vecs = vecTables().map((t) => db.query(`DELETE FROM ${t} WHERE rowid = ?`));
    for (const cid of ids) {
      delFts.run(cid);
      for (const v of vecs) v.run(cid);
    }
    db.query(`DELETE FROM kb_chunks WHERE ${where} = ?`).run(id);
    return ids.length;
  };

  /** Nearest chunks of one base, best first: exact KNN over the float vectors (the reference, small bases). */
  const searchVectorExact = (baseId: string, vector: number[], k: number): Hit[] => {
    const t = vecTable(vector.length);
    if (!vecTables().includes(t)) return [];
    return db
      .query<{ id: number; d: number }, [Uint8Array, number, string]>(
        `SELECT rowid id, distance d FROM ${t} WHERE embedding MATCH ? AND k = ? AND base_id = ?`,
      )
      .all(blob(vector), k, baseId)
      .map((r) => ({ chunkId: Number(r.id), score: 1 - r.d }));
  };

  return {
    /**
     * Replaces a document's chunks (a re-run after a crash leaves no duplicates). Call inside a transaction that also
     * marks the document indexed.
     */
    replaceDocumentChunks(documentId: string, baseId: string, chunks: Chunk[], vectors: number[][] | null): void {
      removeChunks("document_id", documentId);
      const insChunk = db.query<{ id: number }, [string, string, number, string, string | null, number, number]>(
        "INSERT INTO kb_chunks (document_id, base_id, ordinal, text, location, start_offset, end_offset) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
      );
      const insFts = db.query("INSERT INTO kb_fts (rowid, text, base_id) VALUES (?, ?, ?)");
      const dims = vectors?.[0]?.length;
      if (dims) ensureVec(dims);
      const insVec = dims
        ? db.query(
            `INSERT INTO ${vecTable(dims)} (rowid, base_id, embedding, bin) VALUES (?1, ?2, ?3, vec_quantize_binary(?3))`,
          )
        : null;
      const added: { id: number; vector: Uint8Array }[] = [];
      chunks.forEach((c, i) => {
        const { id } = insChunk.get(documentId, baseId, i, c.text, c.location, c.start, c.end)!;
        insFts.run(id, c.text, baseId);
        if (insVec && vectors) {
          const vector = blob(vectors[i]);
          insVec.run(BigInt(id), baseId, vector);
          added.push({ id, vector });
        }
      });
      if (dims) ivf.addChunks(baseId, added, dims);
    },
    /** Deletes a document's chunks from the chunk table and both indexes; returns how many. */
    removeDocument: (documentId: string) => removeChunks("document_id", documentId),
    /** Deletes every chunk of a base. */
    removeBase: (baseId: string) => removeChunks("base_id", baseId),
    countChunks: (baseId: string) =>
      db.query<{ n: number }, [string]>("SELECT COUNT(*) n FROM kb_chunks WHERE base_id = ?").get(baseId)?.n ?? 0,

    /** BM25 ranking within one base, best first. */
    searchText(baseId: string, query: string, k: number): Hit[] {
      const match = ftsQuery(query);
      if (!match) return [];
      return db
        .query<{ id: number; s: number }, [string, string, number]>(
          "SELECT rowid id, rank s FROM kb_fts WHERE kb_fts MATCH ? AND base_id = ? ORDER BY rank LIMIT ?",
        )
        .all(match, baseId, k)
        .map((r) => ({ chunkId: r.id, score: -r.s }));
    },
    /**
     * Nearest chunks by a coarse pass over the binary-quantised vectors (48 bytes for 384 dimensions, Hamming
     * distance) keeping `RERANK`×k candidates reranked by exact cosine. Measured, not used by retrieval: on 100,000
     * chunks it was no faster than the exact search and kept a recall@10 of 0.16 (docs/performance.md).
     */
    searchVector(baseId: string, vector: number[], k: number): Hit[] {
      const t = vecTable(vector.length);
      if (!vecTables().includes(t)) return [];
      const q = blob(vector);
      const candidates = db
        .query<{ id: number }, [Uint8Array, number, string]>(
          `SELECT rowid id FROM ${t} WHERE bin MATCH vec_quantize_binary(?) AND k = ? AND base_id = ?`,
        )
        .all(q, k * RERANK, baseId);
      if (!candidates.length) return [];
      return db
        .query<{ id: number; d: number }, (Uint8Array | number)[]>(
          `SELECT rowid id, vec_distance_cosine(embedding, ?) d FROM ${t} WHERE rowid IN (${candidates.map(() => "?").join(",")}) ORDER BY d LIMIT ${k}`,
        )
        .all(q, ...candidates.map((c) => c.id))
        .map((r) => ({ chunkId: Number(r.id), score: 1 - r.d }));
    },
    /**
     * Nearest chunks of one base, best first, as retrieval asks for them: through the base's coarse quantiser (IVF,
     * `probes` cells) when it has an ACTIVE one of the vector's width, else (or with `probes` 0) the exact search.
     */
    searchVectorNearest(baseId: string, vector: number[], k: number, probes: number): Hit[] {
      const active = probes > 0 ? ivf.active(baseId, vector.length) : undefined;
      return active ? ivf.search(active, vector, k, probes) : searchVectorExact(baseId, vector, k);
    },
    searchVectorExact,
    /** The chunks behind hits, with their document and a snippet around the query's words. */
    chunks(ids: number[]) {
      if (!ids.length) return new Map<number, ChunkRow>();
      const rows = db
        .query<ChunkRow, number[]>(
          `SELECT c.id, c.document_id documentId, d.file_name fileName, c.text, c.location, c.start_offset startOffset,
             c.end_offset endOffset FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
           WHERE c.id IN (${ids.map(() => "?").join(",")})`,
        )
        .all(...ids);
      return new Map(rows.map((r) => [r.id, r]));
    },
  };
}
export type KnowledgeIndex = ReturnType<typeof knowledgeIndex>;

export interface ChunkRow {
  id: number;
  documentId: string;
  fileName: string;
  text: string;
  location: string | null;
  startOffset: number;
  endOffset: number;
}
