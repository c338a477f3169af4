import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { inReadSnapshot } from "./read-snapshot";
import { createWalSync, type WalSync } from "./wal-sync";

/** `synchronous` level applied to every database; NORMAL is safe with WAL (a power loss can drop the last commits, never corrupt). */
export type SyncMode = "FULL" | "NORMAL" | "OFF";

/**
 * The kinds of database, each with its settings here and nowhere else (a test checks that no other module sets a
 * pragma). `engine` and `platform` are checkpointed by the background checkpointer (db/checkpointer.ts): their
 * connections never checkpoint inside a commit. Tenant files stay on SQLite's automatic checkpoint (there are many,
 * each small and opened and closed by the tenant cache). `checkpointer` is the background worker's own connection.
 * `scratch` (tests, tools) keeps SQLite's defaults for checkpoints.
 */
export type DbKind = "engine" | "platform" | "tenant" | "checkpointer" | "scratch";

interface KindSettings {
  /** wal_autocheckpoint pages (0: checkpoints run in the background worker only). */
  autocheckpoint: number;
  /** Negative: KiB of page cache. */
  cacheSize?: number;
  /**
   * When FULL is configured, run the group commit at NORMAL and acknowledge it after an fsync of the -wal file off the
   * event loop (db/wal-sync.ts). Other writes on the connection keep FULL.
   */
  offloadCommitSync: boolean;
}

const SETTINGS: Record<DbKind, KindSettings> = {
  // The working set of a busy engine (open instances, their tasks and jobs) should stay in the page cache.
  engine: { autocheckpoint: 0, cacheSize: -16384, offloadCommitSync: true },
  platform: { autocheckpoint: 0, offloadCommitSync: false },
  tenant: { autocheckpoint: 1000, cacheSize: -256, offloadCommitSync: false },
  checkpointer: { autocheckpoint: 0, offloadCommitSync: false },
  scratch: { autocheckpoint: 1000, offloadCommitSync: false },
};

/** A connection's busy timeout unless its caller asks for another (openSqlite's `busyTimeoutMs`). */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  kind?: DbKind;
  synchronous?: SyncMode;
  busyTimeoutMs?: number;
  readonly?: boolean;
  /** The page cache's size in KiB, instead of its kind's (ENGINE_CACHE_MB, TENANT_CACHE_KB). */
  cacheKib?: number;
}

// The connections whose group commit acknowledges after an off-loop fsync of their WAL (engine, FULL configured).
const walSyncs = new WeakMap<Database, WalSync>();

/** Opens a SQLite file with the settings of its kind: WAL, busy timeout, foreign keys, synchronous, checkpoints. */
export function openSqlite(path: string, opts: OpenOptions = {}): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const kind = SETTINGS[opts.kind ?? "scratch"];
  const db = new Database(path, { create: !opts.readonly, readonly: opts.readonly, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA busy_timeout = ${opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec(`PRAGMA synchronous = ${opts.synchronous ?? "NORMAL"}`);
  db.exec("PRAGMA temp_store = MEMORY");
  db.exec(`PRAGMA wal_autocheckpoint = ${kind.autocheckpoint}`);
  const cache = opts.cacheKib ? -opts.cacheKib : kind.cacheSize;
  if (cache) db.exec(`PRAGMA cache_size = ${cache}`);
  if (kind.offloadCommitSync && opts.synchronous === "FULL" && path !== ":memory:")
    walSyncs.set(db, createWalSync(`${path}-wal`));
  return db;
}

/** The connection's busy timeout (the backup's snapshot connection waits longer for the writer than requests do). */
export function setBusyTimeout(db: Database, ms: number): void {
  db.exec(`PRAGMA busy_timeout = ${ms}`);
}

const NORMAL_SYNC = new WeakMap<Database, { normal: () => void; full: () => void }>();

/**
 * Runs a group commit's transaction and returns what makes it durable under the configured mode: nothing more to wait
 * for (NORMAL, OFF, or FULL on a connection that syncs itself), or the off-loop fsync of the WAL that must finish
 * before the commit is acknowledged (FULL on the engine: the transaction itself runs at NORMAL, so the event loop
 * never waits on fsync). docs/decisions.md ("FULL without an fsync on the event loop") says why frames acknowledged after
 * that fsync are durable.
 */
export function commitOffloadingSync(db: Database, transaction: () => void): (() => Promise<void>) | undefined {
  const sync = walSyncs.get(db);
  if (!sync) {
    transaction();
    return undefined;
  }
  let switcher = NORMAL_SYNC.get(db);
  if (!switcher) {
    const toNormal = db.prepare("PRAGMA synchronous = NORMAL");
    const toFull = db.prepare("PRAGMA synchronous = FULL");
    switcher = { normal: () => toNormal.run(), full: () => toFull.run() };
    NORMAL_SYNC.set(db, switcher);
  }
  switcher.normal();
  try {
    transaction();
  } finally {
    switcher.full();
  }
  return sync.durable;
}

/** Closes the connection and what was opened beside it (the WAL's file handle). */
export async function closeSqlite(db: Database): Promise<void> {
  const sync = walSyncs.get(db);
  walSyncs.delete(db);
  if (sync) await sync.close();
  db.close();
}

/**
 * Runs fn inside BEGIN IMMEDIATE so concurrent writers queue on the busy timeout instead of failing on upgrade. Inside
 * a write transaction already open it nests (a savepoint); inside a read snapshot it throws: a write there is a
 * programming error (readSnapshot's reads must not write), which would otherwise upgrade a possibly stale snapshot.
 */
export function immediate<T>(db: Database, fn: () => T): T {
  if (inReadSnapshot(db)) throw new Error("A write transaction was begun inside a read snapshot (readSnapshot)");
  return db.transaction(fn).immediate();
}

/**
 * Makes `db.close()` really close the file. A statement from `db.prepare()` (drizzle prepares one per query) keeps a
 * closed connection alive as a zombie with its descriptors open until the garbage collector finalizes it, so a
 * bounded cache of handles would bound nothing. Tracking them weakly and finalizing the live ones at close is not
 * enough: one already collected but not yet finalized still holds the file until the next sweep (a flaky
 * tenant-files-bound test showed it). So `prepare(sql)` goes through Bun's statement cache (`query`), whose
 * statements `close()` finalizes itself: one statement per distinct SQL text, reused, never collected behind our back.
 * Statements prepared with bound parameters are still tracked weakly as before.
 */
export function closeFinalizing(db: Database): Database {
  const statements = new Set<WeakRef<{ finalize(): void }>>();
  const prepare = db.prepare.bind(db);
  const query = db.query.bind(db);
  const close = db.close.bind(db);
  db.prepare = ((...args: Parameters<Database["prepare"]>) => {
    if (args.length === 1) return query(args[0]);
    const statement = prepare(...args);
    if (statements.size >= 512) for (const ref of statements) if (!ref.deref()) statements.delete(ref);
    statements.add(new WeakRef(statement));
    return statement;
  }) as Database["prepare"];
  db.close = (throwOnError?: boolean) => {
    for (const ref of statements) ref.deref()?.finalize();
    statements.clear();
    close(throwOnError);
  };
  return db;
}
