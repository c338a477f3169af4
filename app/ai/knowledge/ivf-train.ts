import type { Database } from "bun:sqlite";
import { unitVector } from "./ivf-store";
import { nearestCell, seededRandom, trainCentroids } from "./kmeans";

export interface TrainRequest {
  baseId: string;
  dims: number;
  cells: number;
  /** Vectors the centroids are trained on (a reservoir sample of the base). */
  sampleSize: number;
}
export interface TrainResult {
  centroids: Float32Array;
  /** Chunk ids and their cells, in step. */
  ids: Float64Array;
  cellOf: Int32Array;
}

/**
 * Trains a base's centroids and assigns every vector to its cell, reading the base's float vectors with two scans
 * of its vec0 partition (faster than point reads); CPU-heavy, so it runs in a Worker on its own connection
 * (ivf-worker.ts) and only on the caller's thread for an in-memory database.
 */
export function trainAndAssign(db: Database, req: TrainRequest): TrainResult {
  const { baseId, dims } = req;
  const scan = () =>
    db
      .query<{ id: number; e: Uint8Array }, [string]>(
        `SELECT rowid id, embedding e FROM kb_vec_${dims} WHERE base_id = ?`,
      )
      .iterate(baseId);
  const rnd = seededRandom(req.sampleSize * 7 + dims);
  const sample = new Float32Array(req.sampleSize * dims);
  let seen = 0;
  for (const { e } of scan()) {
    const slot = seen < req.sampleSize ? seen : Math.floor(rnd() * (seen + 1));
    if (slot < req.sampleSize) sample.set(unitVector(e), slot * dims);
    seen++;
  }
  const rows = Math.min(seen, req.sampleSize);
  const centroids = trainCentroids(sample.subarray(0, rows * dims), dims, Math.min(req.cells, rows));
  const ids: number[] = [];
  const cells: number[] = [];
  for (const { id, e } of scan()) {
    ids.push(Number(id));
    cells.push(nearestCell(centroids, dims, unitVector(e)));
  }
  return { centroids, ids: Float64Array.from(ids), cellOf: Int32Array.from(cells) };
}
