import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "./connection";
import { migrationsFolder, runMigrations } from "./migrate";

/** A copy of the engine's migrations without those from `tag` on: a database as an older release left it. */
function engineMigrationsBefore(tag: string): string {
  const folder = join(mkdtempSync(join(tmpdir(), "migrations-")), "engine");
  cpSync(migrationsFolder("engine"), folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  for (const e of journal.entries.slice(at)) rmSync(join(folder, `${e.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

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

  test("0017 records the case as the parent of the processes its process tasks started before the link", () => {
    const db = openSqlite(":memory:");
    runMigrations(db, "engine", engineMigrationsBefore("0017_case_process_parents"));
    const instance = db.query(
      "INSERT INTO process_instances (id, tenant_id, definition_id, definition_key, version, state, start_time, parent_instance_id) VALUES (?, 't1', 'd', 'k', 1, 'ACTIVE', 0, ?)",
    );
    instance.run("by-case", null); // started by a case's process task, without the parent link
    instance.run("plain", null); // started by a user
    instance.run("called", "bpmn-parent"); // a call activity's child keeps its parent
    const item = db.query(
      "INSERT INTO case_plan_items (id, tenant_id, case_instance_id, element_id, definition_ref, name, type, state, seq, created_at, data, process_instance_id) VALUES (?, ?, ?, 'e', 'r', 'n', 'processTask', 'ACTIVE', 1, 0, '{}', ?)",
    );
    item.run("i1", "t1", "case-1", "by-case");
    item.run("i2", "t2", "case-2", "called"); // another tenant's item never links a row of t1
    runMigrations(db, "engine");
    const parents = db.query("SELECT id, parent_instance_id AS parent FROM process_instances ORDER BY id").all();
    expect(parents).toEqual([
      { id: "by-case", parent: "case-1" },
      { id: "called", parent: "bpmn-parent" },
      { id: "plain", parent: null },
    ]);
    db.close();
  });

  test("connections enforce foreign keys and the documented synchronous level", () => {
    const db = openSqlite(":memory:");
    expect((db.query("PRAGMA foreign_keys").get() as any).foreign_keys).toBe(1);
    expect((db.query("PRAGMA synchronous").get() as any).synchronous).toBe(1);
    db.close();
  });
});
