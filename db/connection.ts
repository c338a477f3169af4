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
