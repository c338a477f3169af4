import type { Database } from "bun:sqlite";

/** Checkpoints each database's WAL into its file, timing each (TRUNCATE at shutdown leaves no -wal behind). */
export function checkpointAll(
  dbs: Iterable<[string, Database]>,
  mode: "PASSIVE" | "TRUNCATE",
  record: (db: string, seconds: number) => void,
): void {
  for (const [name, db] of dbs) {
    const t0 = performance.now();
    db.exec(`PRAGMA wal_checkpoint(${mode})`);
    record(name, (performance.now() - t0) / 1000);
  }
}
