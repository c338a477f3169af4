import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { type BackupManifest, integrityOf, MANIFEST } from "./snapshot";

/**
 * Restores a backup made by `backupDataDir` into `dataDir`, which must be new or empty (so a running service's data is
 * never overwritten). Every file the manifest lists must be there with its size; every database must pass
 * integrity_check once copied.
 */
export function restoreDataDir(fromDir: string, dataDir: string): BackupManifest {
  const manifestPath = join(fromDir, MANIFEST);
  if (!existsSync(manifestPath)) throw new Error(`${fromDir} is not a backup: no ${MANIFEST}`);
  if (existsSync(dataDir) && readdirSync(dataDir).length) {
    throw new Error(`${dataDir} is not empty: restore only into an empty data directory`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as BackupManifest;
  for (const entry of [...manifest.databases, ...manifest.files]) {
    const from = join(fromDir, entry.path);
    if (!existsSync(from) || statSync(from).size !== entry.bytes) {
      throw new Error(`backup incomplete: ${entry.path} missing or of the wrong size`);
    }
  }
  mkdirSync(dataDir, { recursive: true });
  for (const entry of [...manifest.databases, ...manifest.files]) {
    const to = join(dataDir, entry.path);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(fromDir, entry.path), to);
  }
  for (const db of manifest.databases) {
    const result = integrityOf(join(dataDir, db.path));
    if (result !== "ok") throw new Error(`integrity check failed after restore for ${db.path}: ${result}`);
  }
  return manifest;
}
