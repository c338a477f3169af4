import type { Database } from "bun:sqlite";
import { nearestCell, nearestCells, normalizeRows } from "./kmeans";

/** A generation of a base's coarse quantiser (a row of kb_ivf_indexes). */
export interface IvfRow {
  id: number;
  base_id: string;
  dims: number;
  cells: number;
  state: "BUILDING" | "ACTIVE";
  trained_count: number;
  cursor: number;
}

export const ivfTable = (id: number) => `kb_ivf_t${id}`;
/** Vectors per vec0 chunk: near the size of a cell (≈√n), so a probed cell reads little beyond its own vectors. */
const CHUNK_SIZE = 128;

/** Centroids by generation id (a generation's centroids never change; ids are never reused: AUTOINCREMENT). */
const decoded = new WeakMap<Database, Map<number, Float32Array>>();
/** The centroids of a generation as floats, read and decoded once per connection. */
export function centroidsOf(db: Database, row: IvfRow): Float32Array {
  let byId = decoded.get(db);
  if (!byId) decoded.set(db, (byId = new Map()));
  let c = byId.get(row.id);
  if (!c) {
    const b = db
      .query<{ c: Uint8Array }, [number]>("SELECT centroids c FROM kb_ivf_indexes WHERE id = ?")
      .get(row.id)!.c;
    c = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    byId.set(row.id, c);
  }
  return c;
}

/** Float32 view of a vec0 float blob or a plain vector, unit length (the quantiser is over directions). */
export function unitVector(v: ArrayLike<number> | Uint8Array): Float32Array {
  const f =
    v instanceof Uint8Array
      ? new Float32Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength))
      : new Float32Array(v);
  return normalizeRows(f, f.length);
}

/**
 * The IVF generations of one database's bases. Each generation's vectors sit in a vec0 table partitioned by cell;
 * sqlite-vec finds a partition's chunks by scanning its `_chunks` shadow table, so an index on the partition column
 * is added: without it every probed cell cost a scan of all chunk rows (the 0.73-recall experiment's 6× instead of
 * the 25× measured with it, docs/_notes-kb-ivf.md).
 */
export function ivfStore(db: Database) {
  // Rows are re-read on each call (cheap, indexed by base) so a generation switched by the job is seen at once.
  const rowsOf = (baseId: string) =>
    db
      .query<IvfRow, [string]>(
        "SELECT id, base_id, dims, cells, state, trained_count, cursor FROM kb_ivf_indexes WHERE base_id = ? ORDER BY id",
      )
      .all(baseId);
  const insertStmt = (id: number) => db.query(`INSERT INTO ${ivfTable(id)} (rowid, cell, embedding) VALUES (?, ?, ?)`);

  return {
    rowsOf,
    active: (baseId: string, dims: number) => rowsOf(baseId).find((r) => r.state === "ACTIVE" && r.dims === dims),
    building: (baseId: string) => rowsOf(baseId).find((r) => r.state === "BUILDING"),

    /** Starts a generation: its row (BUILDING, cursor 0) and its empty table. */
    create(baseId: string, dims: number, centroids: Float32Array, trainedCount: number, nowIso: string): IvfRow {
      const row = db
        .query<IvfRow, [string, number, number, Uint8Array, number, string]>(
          `INSERT INTO kb_ivf_indexes (base_id, dims, cells, centroids, state, trained_count, cursor, created_at)
           VALUES (?, ?, ?, ?, 'BUILDING', ?, 0, ?) RETURNING id, base_id, dims, cells, state, trained_count, cursor`,
        )
        .get(baseId, dims, centroids.length / dims, new Uint8Array(centroids.buffer.slice(0)), trainedCount, nowIso)!;
      const t = ivfTable(row.id);
      db.exec(
        `CREATE VIRTUAL TABLE ${t} USING vec0(cell integer partition key, embedding float[${dims}] distance_metric=cosine, chunk_size=${CHUNK_SIZE})`,
      );
      db.exec(`CREATE INDEX ${t}_cells ON ${t}_chunks (partition00)`);
      return row;
    },

    /** Adds vectors to a generation, each in the cell of its nearest centroid unless `cells` names it. */
    insert(row: IvfRow, items: { id: number; vector: Uint8Array }[], cells?: Map<number, number>) {
      const ins = insertStmt(row.id);
      const centroids = centroidsOf(db, row);
      for (const { id, vector } of items) {
        const cell = cells?.get(id) ?? nearestCell(centroids, row.dims, unitVector(vector));
        ins.run(BigInt(id), cell, vector);
      }
    },

    /**
     * New chunks of a base at indexing time: into the ACTIVE generation, and into a BUILDING one for ids its fill
     * has passed (the fill picks up the others). Call in the indexing transaction.
     */
    addChunks(baseId: string, items: { id: number; vector: Uint8Array }[], dims: number) {
      for (const row of rowsOf(baseId)) {
        if (row.dims !== dims) continue;
        this.insert(row, row.state === "ACTIVE" ? items : items.filter((i) => i.id <= row.cursor));
      }
    },

    /** Removes chunks from every generation of a base (deleting an absent rowid is a no-op). */
    removeChunks(baseId: string, ids: number[]) {
      for (const row of rowsOf(baseId)) {
        const del = db.query(`DELETE FROM ${ivfTable(row.id)} WHERE rowid = ?`);
        for (const id of ids) del.run(BigInt(id));
      }
    },

    /** Drops generations (their tables and rows): a whole base, or the generations a new one replaced. */
    drop(rows: IvfRow[]) {
      for (const row of rows) {
        db.exec(`DROP TABLE IF EXISTS ${ivfTable(row.id)}`);
        db.query("DELETE FROM kb_ivf_indexes WHERE id = ?").run(row.id);
        decoded.get(db)?.delete(row.id);
      }
    },

    /**
     * The k nearest vectors of the `probes` cells nearest to the query, exact cosine within them (one KNN per
     * cell, merged by distance then id so ties order as the exact search's do).
     */
    search(row: IvfRow, vector: number[], k: number, probes: number) {
      const q = new Float32Array(vector);
      const cells = nearestCells(centroidsOf(db, row), row.dims, unitVector(vector), probes);
      const knn = db.query<{ id: number; d: number }, [Uint8Array, number, number]>(
        `SELECT rowid id, distance d FROM ${ivfTable(row.id)} WHERE embedding MATCH ? AND k = ? AND cell = ?`,
      );
      const blob = new Uint8Array(q.buffer);
      return cells
        .flatMap((c) => knn.all(blob, k, c))
        .sort((a, b) => a.d - b.d || a.id - b.id)
        .slice(0, k)
        .map((r) => ({ chunkId: Number(r.id), score: 1 - r.d }));
    },
  };
}
export type IvfStore = ReturnType<typeof ivfStore>;
