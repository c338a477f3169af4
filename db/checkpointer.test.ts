import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { type CheckpointReport, startCheckpointer } from "./checkpointer";
import { openSqlite } from "./connection";

const tmp = () => mkdtempSync(join(tmpdir(), "checkpointer-"));
const pragma = (db: ReturnType<typeof openSqlite>, name: string) =>
  Object.values(db.query(`PRAGMA ${name}`).get() as Record<string, number>)[0];
const walSize = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);

describe("database settings and the background checkpointer", () => {
  test("the engine and platform connections never checkpoint in a commit; tenant files keep the automatic one", () => {
    const dir = tmp();
    const at = (kind: "engine" | "platform" | "tenant", synchronous: "NORMAL" | "FULL" = "NORMAL") =>
      openSqlite(join(dir, `${kind}-${synchronous}.sqlite`), { kind, synchronous });
    expect(pragma(at("engine"), "wal_autocheckpoint")).toBe(0);
    expect(pragma(at("platform"), "wal_autocheckpoint")).toBe(0);
    expect(pragma(at("tenant"), "wal_autocheckpoint")).toBe(1000);
    expect(pragma(at("engine"), "journal_mode")).toBe("wal" as never);
    // FULL stays FULL on the connection (every write but the group commit syncs itself); platform and tenants too.
    expect(pragma(at("engine", "FULL"), "synchronous")).toBe(2);
    expect(pragma(at("platform", "FULL"), "synchronous")).toBe(2);
    expect(pragma(at("engine"), "synchronous")).toBe(1);
  });

  test("the worker copies the WAL while it grows and truncates it once the database is idle", async () => {
    const path = join(tmp(), "engine.sqlite");
    const db = openSqlite(path, { kind: "engine" });
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
    const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
    const fill = () => db.transaction(() => Array.from({ length: 200 }, () => insert.run("x".repeat(1000))))();
    for (let i = 0; i < 5; i++) fill();
    const before = walSize(path);
    expect(before).toBeGreaterThan(512 * 1024); // nothing checkpointed it: autocheckpoint is 0
    const reports: CheckpointReport[] = [];
    const cp = startCheckpointer(
      { dbs: [{ name: "engine", path }], intervalMs: 10, truncateAboveBytes: 64 * 1024 },
      (r) => reports.push(r),
    );
    try {
      const until = Date.now() + 10_000;
      const truncated = () => reports.some((r) => r.mode === "TRUNCATE" && !r.busy && r.walBytes === 0);
      while ((walSize(path) > 0 || !truncated()) && Date.now() < until) await Bun.sleep(20);
      expect(walSize(path)).toBe(0);
      expect(reports.some((r) => r.mode === "PASSIVE")).toBe(true);
      expect(reports.some((r) => r.mode === "TRUNCATE" && !r.busy && r.walBytes === 0)).toBe(true);
      // Writes go on after the truncate (the same -wal file, restarted) and are checkpointed again.
      fill();
      expect(walSize(path)).toBeGreaterThan(0);
      while (walSize(path) > 0 && Date.now() < until + 10_000) await Bun.sleep(20);
      expect(walSize(path)).toBe(0);
      expect((db.query("SELECT COUNT(*) AS c FROM t").get() as { c: number }).c).toBe(1200);
    } finally {
      await cp.stop();
      db.close();
    }
  });

  test("only db/connection.ts sets a pragma", () => {
    const root = join(import.meta.dir, "..");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) {
          const rel = relative(root, p);
          if (rel !== "db/connection.ts" && /PRAGMA\s+\w+\s*=/i.test(readFileSync(p, "utf8"))) offenders.push(rel);
        }
      }
    };
    for (const top of ["app", "engine", "db", "tenants"]) walk(join(root, top));
    expect(offenders).toEqual([]);
  });
});

/** An engine database written through its group commit, as the service writes it. */
async function gatedEngine() {
  const { createGroupCommit } = await import("../app/runtime/kernel/group-commit");
  const path = join(tmp(), "engine.sqlite");
  const db = openSqlite(path, { kind: "engine" });
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
  const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
  return { path, db, insert, commit: createGroupCommit(db) };
}

describe("the WAL starts over under continuous writes", () => {
  test("a gated database is caught up with its group commits held, so its WAL file stays near the restart size; its TRUNCATE is held too", async () => {
    const { path, db, insert, commit } = await gatedEngine();
    const reports: CheckpointReport[] = [];
    const restartAboveBytes = 512 * 1024;
    const cp = startCheckpointer(
      {
        dbs: [{ name: "engine", path, connection: db }],
        intervalMs: 5,
        restartAboveBytes,
        truncateAboveBytes: 64 * 1024,
      },
      (r) => reports.push(r),
    );
    let largest = 0;
    try {
      // About 24 MiB of rows, written by 8 callers without a pause: no idle moment for a TRUNCATE.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = 0; i < 1500; i++) {
            await commit(() => insert.run("x".repeat(2000)));
            if (i % 50 === 0) await Bun.sleep(0); // let the checkpointer's messages in, as requests do
            largest = Math.max(largest, walSize(path));
          }
        }),
      );
      expect((db.query("SELECT COUNT(*) AS c FROM t").get() as { c: number }).c).toBe(12_000);
      expect(reports.some((r) => r.writesHeld && !r.busy)).toBe(true);
      expect(reports.some((r) => r.mode === "TRUNCATE")).toBe(false);
      // Without the catch-up the file would hold every frame written (over 24 MiB).
      expect(largest).toBeLessThan(8 * 1024 * 1024);
      // Idle now: the TRUNCATE runs with the group commits held too (they never wait on its lock).
      const until = Date.now() + 10_000;
      while (!reports.some((r) => r.mode === "TRUNCATE") && Date.now() < until) await Bun.sleep(10);
      const truncates = reports.filter((r) => r.mode === "TRUNCATE");
      expect(truncates.length).toBeGreaterThan(0);
      expect(truncates.every((r) => r.writesHeld)).toBe(true);
      expect(walSize(path)).toBe(0);
    } finally {
      await cp.stop();
      db.close();
    }
  });

  test("a WAL pinned by another connection's snapshot (a backup) is not held for again and again", async () => {
    const { path, db, insert, commit } = await gatedEngine();
    await commit(() => insert.run("first"));
    // A reader keeps its snapshot open, as VACUUM INTO does during a backup: no checkpoint gets past it.
    const reader = openSqlite(path);
    reader.exec("BEGIN");
    reader.query("SELECT COUNT(*) AS c FROM t").get();
    const reports: CheckpointReport[] = [];
    const cp = startCheckpointer(
      { dbs: [{ name: "engine", path, connection: db }], intervalMs: 5, restartAboveBytes: 64 * 1024 },
      (r) => reports.push(r),
    );
    let commits = 0;
    try {
      const until = performance.now() + 1500;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (performance.now() < until) {
            await commit(() => insert.run("x".repeat(2000)));
            commits++;
            await Bun.sleep(0);
          }
        }),
      );
      const holds = reports.filter((r) => r.writesHeld).length;
      expect(commits).toBeGreaterThan(200);
      // Without the back-off the worker held the writes about once per commit, copying nothing each time.
      expect(holds).toBeLessThan(commits / 10);
      expect(holds).toBeLessThanOrEqual(Math.ceil(1500 / (10 * 5)) + 2);
    } finally {
      reader.exec("COMMIT");
      reader.close();
      await cp.stop();
      db.close();
    }
  });
});
