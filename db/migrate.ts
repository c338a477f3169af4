import type { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { join } from "node:path";

export type DatabaseKind = "platform" | "engine" | "tenant";

/** Folder holding the drizzle-kit generated SQL migrations of one kind of database. */
export function migrationsFolder(kind: DatabaseKind): string {
  return join(import.meta.dir, "migrations", kind);
}

/** Applies pending migrations of `kind` to an open database (idempotent). */
export function runMigrations(sqlite: Database, kind: DatabaseKind, folder = migrationsFolder(kind)): void {
  migrate(drizzle(sqlite), { migrationsFolder: folder });
}
