import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { setBusyTimeout } from "../../../db/connection";

export const MANIFEST = "backup-manifest.json";

export interface BackupManifest {
  format: 1;
  startedAt: string;
  finishedAt: string;
  databases: { path: string; bytes: number; integrity: string }[];
  files: { path: string; bytes: number }[];
}

/** Every file under `dir`, as paths relative to it. */
export function walk(dir: string, under = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? walk(full, under) : [relative(under, full)];
  });
}

const isDatabase = (p: string) => p.endsWith(".sqlite");
/** SQLite's side files belong to a live database (its snapshot holds their content); temp uploads are unfinished. */
const isSkipped = (p: string) => /\.sqlite-(wal|shm|journal)$/.test(p) || /(^|\/)files\/tmp\//.test(p);
/** Shared databases first, then tenants: the order a restore drill reads them in. */
const rank = (p: string) => (p === "platform.sqlite" ? 0 : p === "engine.sqlite" ? 1 : 2);

export function integrityOf(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check ?? "no answer";
  } finally {
    db.close();
  }
}

function snapshotDatabase(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  const db = new Database(from);
  try {
    setBusyTimeout(db, 10_000);
    // VACUUM INTO reads one consistent snapshot (a read transaction) while the service keeps writing.
    db.query("VACUUM INTO ?").run(to);
  } finally {
    db.close();
  }
}

/**
 * An online backup of a data directory into `toDir` (which must be new or empty): every SQLite file by VACUUM INTO,
 * then every other file (the file store, the JWT secret). Databases go first so that every stored-file row in the
 * snapshot finds its file: files are written before the row that names them and never changed afterwards.
 */
export function backupDataDir(dataDir: string, toDir: string): BackupManifest {
  if (!existsSync(join(dataDir, "platform.sqlite"))) throw new Error(`${dataDir} holds no platform.sqlite`);
  return snapshotTree(dataDir, toDir);
}

/** The same online snapshot of any folder of databases and files (a data directory, or one tenant's folder). */
export function snapshotTree(dataDir: string, toDir: string): BackupManifest {
  if (existsSync(toDir) && readdirSync(toDir).length) throw new Error(`${toDir} is not empty`);
  const inside = relative(resolve(dataDir), resolve(toDir));
  if (!inside.startsWith("..") && !isAbsolute(inside)) throw new Error(`${toDir} is inside the data directory`);
  mkdirSync(toDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const all = walk(dataDir).filter((p) => !isSkipped(p));
  const databases = all.filter(isDatabase).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const manifest: BackupManifest = { format: 1, startedAt, finishedAt: "", databases: [], files: [] };
  for (const p of databases) {
    const target = join(toDir, p);
    snapshotDatabase(join(dataDir, p), target);
    manifest.databases.push({ path: p, bytes: statSync(target).size, integrity: integrityOf(target) });
  }
  for (const p of all.filter((f) => !isDatabase(f))) {
    const target = join(toDir, p);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(dataDir, p), target);
    manifest.files.push({ path: p, bytes: statSync(target).size });
  }
  manifest.finishedAt = new Date().toISOString();
  const bad = manifest.databases.filter((d) => d.integrity !== "ok");
  if (bad.length) throw new Error(`integrity check failed for ${bad.map((d) => d.path).join(", ")}`);
  writeFileSync(join(toDir, MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}
