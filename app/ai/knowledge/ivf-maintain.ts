import type { Database } from "bun:sqlite";
import { type IvfRow, ivfStore } from "./ivf-store";
import { type TrainRequest, type TrainResult, trainAndAssign } from "./ivf-train";
import { cellsFor } from "./kmeans";

/** Vectors the centroids are trained on, per cell (k-means needs a few dozen points per centroid). */
const SAMPLE_PER_CELL = 32;
/** Chunks copied into a new generation per transaction; the event loop runs between slices. */
const FILL_SLICE = 256;

export type IvfAction = "TRAIN" | "DROP" | null;

const chunkCount = (db: Database, baseId: string) =>
  db.query<{ n: number }, [string]>("SELECT COUNT(*) n FROM kb_chunks WHERE base_id = ?").get(baseId)?.n ?? 0;

/**
 * What a base's quantiser needs: trained once the base reaches `threshold` chunks, retrained when it has doubled
 * since, dropped when it shrank below half the threshold (the exact search is then fast enough).
 */
export function ivfDue(db: Database, baseId: string, threshold: number): IvfAction {
  const rows = ivfStore(db).rowsOf(baseId);
  const n = chunkCount(db, baseId);
  const dims = dimsOf(db, baseId);
  if (rows.length && (n < threshold / 2 || !dims)) return "DROP";
  if (n < threshold || !dims) return null;
  if (rows.some((r) => r.state === "BUILDING")) return "TRAIN";
  // Vectors of another width (the embedding model changed and the base was reindexed) need new centroids.
  const active = rows.find((r) => r.state === "ACTIVE" && r.dims === dims);
  return !active || n >= active.trained_count * 2 ? "TRAIN" : null;
}

/** The width of the base's newest vectors, or null when it has none. */
function dimsOf(db: Database, baseId: string): number | null {
  const last = db
    .query<{ id: number }, [string]>("SELECT id FROM kb_chunks WHERE base_id = ? ORDER BY id DESC LIMIT 1")
    .get(baseId);
  if (!last) return null;
  const tables = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'kb_vec_[0-9]*'")
    .all()
    .map((r) => r.name)
    .filter((n) => /^kb_vec_\d+$/.test(n));
  for (const t of tables)
    if (db.query(`SELECT rowid FROM ${t} WHERE rowid = ?`).get(last.id)) return Number(t.slice("kb_vec_".length));
  return null;
}

/** Trains in a Worker on its own connection to the file; an in-memory database can only be read on this thread. */
export function trainInWorker(db: Database, req: TrainRequest): Promise<TrainResult> {
  if (!db.filename || db.filename === ":memory:") return Promise.resolve(trainAndAssign(db, req));
  const worker = new Worker(new URL("./ivf-worker.ts", import.meta.url).href);
  return new Promise<TrainResult>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<({ ok: true } & TrainResult) | { ok: false; error: string }>) =>
      e.data.ok ? resolve(e.data) : reject(new Error(e.data.error));
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage({ ...req, path: db.filename });
  }).finally(() => worker.terminate());
}

const running = new Set<string>();
const tick = () => new Promise((r) => setTimeout(r, 0));

/**
 * The work of the `svc:kb-ivf` job for one base: trains a new generation (or resumes one a crash interrupted),
 * fills its table slice by slice while the ACTIVE generation keeps answering, then switches to it in one
 * transaction and drops the old one. Idempotent: a rerun resumes from the stored cursor.
 */
export async function maintainIvf(
  db: Database,
  baseId: string,
  opts: { threshold: number; nowIso: () => string; train?: typeof trainInWorker },
): Promise<IvfAction> {
  const key = `${db.filename}\u0000${baseId}`;
  if (running.has(key)) return null;
  running.add(key);
  try {
    const store = ivfStore(db);
    const action = ivfDue(db, baseId, opts.threshold);
    if (action === "DROP") db.transaction(() => store.drop(store.rowsOf(baseId)))();
    if (action !== "TRAIN") return action;
    let row = store.building(baseId);
    let assigned = new Map<number, number>();
    if (!row) {
      const dims = dimsOf(db, baseId);
      if (!dims) return null;
      const n = chunkCount(db, baseId);
      const cells = cellsFor(n);
      const r = await (opts.train ?? trainInWorker)(db, { baseId, dims, cells, sampleSize: cells * SAMPLE_PER_CELL });
      if (!db.query("SELECT 1 FROM knowledge_bases WHERE id = ?").get(baseId)) return null;
      row = db.transaction(() => store.create(baseId, dims, r.centroids, n, opts.nowIso()))();
      assigned = new Map(Array.from(r.ids, (id, i) => [id, r.cellOf[i]]));
    }
    while (row && !fillSlice(db, row, assigned)) {
      await tick();
      row = store.rowsOf(baseId).find((r) => r.id === row?.id);
    }
    return row ? "TRAIN" : null;
  } finally {
    running.delete(key);
  }
}

/** Copies the next slice of the base's vectors into a BUILDING generation; at the end activates it. True when done. */
function fillSlice(db: Database, row: IvfRow, assigned: Map<number, number>): boolean {
  const store = ivfStore(db);
  const read = db.query<{ e: Uint8Array }, [number]>(`SELECT embedding e FROM kb_vec_${row.dims} WHERE rowid = ?`);
  return db
    .transaction(() => {
      const ids = db
        .query<{ id: number }, [string, number, number]>(
          "SELECT id FROM kb_chunks WHERE base_id = ? AND id > ? ORDER BY id LIMIT ?",
        )
        .all(row.base_id, row.cursor, FILL_SLICE)
        .map((r) => r.id);
      if (!ids.length) {
        const old = store.rowsOf(row.base_id).filter((r) => r.id !== row.id);
        db.query("UPDATE kb_ivf_indexes SET state = 'ACTIVE' WHERE id = ?").run(row.id);
        store.drop(old);
        return true;
      }
      const items = ids.flatMap((id) => {
        const v = read.get(id);
        return v ? [{ id, vector: v.e }] : [];
      });
      store.insert(row, items, assigned);
      const cursor = ids[ids.length - 1];
      db.query("UPDATE kb_ivf_indexes SET cursor = ? WHERE id = ?").run(cursor, row.id);
      row.cursor = cursor;
      return false;
    })
    .immediate();
}
