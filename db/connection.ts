import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** `synchronous` level applied to every database; NORMAL is safe with WAL (a power loss can drop the last commits, never corrupt). */
export type SyncMode = "FULL" | "NORMAL" | "OFF";

export interface OpenOptions {
  synchronous?: SyncMode;
  busyTimeoutMs?: number;
  readonly?: boolean;
}

/** Opens a SQLite file with the project's pragmas: WAL, busy timeout, foreign keys, explicit synchronous. */
export function openSqlite(path: string, opts: OpenOptions = {}): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: !opts.readonly, readonly: opts.readonly, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec(`PRAGMA synchronous = ${opts.synchronous ?? "NORMAL"}`);
  db.exec("PRAGMA temp_store = MEMORY");
  return db;
}

/** Runs fn inside BEGIN IMMEDIATE so concurrent writers queue on the busy timeout instead of failing on upgrade. */
export function immediate<T>(db: Database, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/**
 * Makes `db.close()` really close the file. A statement from `db.prepare()` (drizzle prepares one per query) keeps a
 * closed connection alive as a zombie with its descriptors open until the garbage collector finalizes it, so a
 * bounded cache of handles would bound nothing. The live statements are tracked weakly and finalized before closing.
 */
export function closeFinalizing(db: Database): Database {
  const statements = new Set<WeakRef<{ finalize(): void }>>();
  const prepare = db.prepare.bind(db);
  const close = db.close.bind(db);
  db.prepare = ((...args: Parameters<Database["prepare"]>) => {
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
