import type { Database } from "bun:sqlite";

const statements = new WeakMap<Database, { begin: () => void; commit: () => void }>();
// The connections whose synchronous reads are running in a read transaction of their own (not one they joined).
const reading = new WeakSet<Database>();

/**
 * True while `db` runs the reads of a readSnapshot that began its own read transaction. A write transaction begun
 * there would silently turn into a savepoint of the read one (bun:sqlite nests), upgrading a snapshot that may be
 * stale: `immediate` (db/connection.ts) refuses it instead.
 */
export function inReadSnapshot(db: Database): boolean {
  return reading.has(db);
}

/**
 * Runs the reads of `read` in one read transaction: one snapshot, and one WAL read lock taken and released instead of
 * one per statement. On a WAL database each statement run outside a transaction locks and unlocks its read mark in
 * the shared-memory file (two fcntl calls) and checks the database size (fstat); for the six reads of an instance
 * load that was two thirds of their time (42 µs against 12.5 µs, bench notes in docs/performance.md). `read` must be
 * synchronous and must not write: nothing else can run on the connection meanwhile, so the WAL is never pinned for
 * longer than the reads themselves. Inside a transaction already open, `read` simply joins it.
 */
export function readSnapshot<T>(db: Database, read: () => T): T {
  if (db.inTransaction) return read();
  let s = statements.get(db);
  if (!s) {
    // Bun's cached statements (query), which close() finalizes: a prepare()d one would keep the closed connection
    // alive as a zombie, its file descriptors and WAL held until the collector finalizes it (db/connection.ts).
    const begin = db.query("BEGIN DEFERRED");
    const commit = db.query("COMMIT");
    s = { begin: () => void begin.run(), commit: () => void commit.run() };
    statements.set(db, s);
  }
  s.begin();
  reading.add(db);
  try {
    return read();
  } finally {
    reading.delete(db);
    // Only if still open: were it already rolled back, a failing COMMIT would hide the error that `read` threw.
    if (db.inTransaction) s.commit();
  }
}
