import { describe, expect, test } from "bun:test";
import { openSqlite } from "./connection";
import { runMigrations } from "./migrate";

describe("migrations", () => {
  test("every kind of database migrates from empty and re-running is a no-op", () => {
    for (const kind of ["platform", "engine", "tenant"] as const) {
      const db = openSqlite(":memory:");
      runMigrations(db, kind);
      runMigrations(db, kind);
      const tables = db.query("select name from sqlite_master where type='table'").all() as { name: string }[];
      expect(tables.length).toBeGreaterThan(1);
      db.close();
    }
  });

  test("connections enforce foreign keys and the documented synchronous level", () => {
    const db = openSqlite(":memory:");
    expect((db.query("PRAGMA foreign_keys").get() as any).foreign_keys).toBe(1);
    expect((db.query("PRAGMA synchronous").get() as any).synchronous).toBe(1);
    db.close();
  });
});
