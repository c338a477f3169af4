import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { descriptorsUnder } from "../test/harness/descriptors";
import { immediate, openSqlite } from "./connection";
import { readSnapshot } from "./read-snapshot";

/** One WAL database with two connections: `db` reads, `other` writes as another connection would. */
function pair() {
  const path = join(mkdtempSync(join(tmpdir(), "read-snapshot-")), "engine.sqlite");
  const db = openSqlite(path, { kind: "engine" });
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY)");
  const other = openSqlite(path, { kind: "scratch" });
  const count = () => (db.query("SELECT count(*) AS n FROM t").get() as { n: number }).n;
  return { db, other, count, path };
}

describe("readSnapshot: several reads in one read transaction", () => {
  test("the reads see one snapshot: a commit of another connection in between is not seen until after", () => {
    const { db, other, count } = pair();
    const seen = readSnapshot(db, () => {
      const before = count();
      other.exec("INSERT INTO t VALUES (1)");
      return [before, count()];
    });
    expect(seen).toEqual([0, 0]);
    expect(count()).toBe(1);
    expect(db.inTransaction).toBe(false);
    // Without it, each statement is its own transaction and sees the commit.
    const before = count();
    other.exec("INSERT INTO t VALUES (2)");
    expect([before, count()]).toEqual([1, 2]);
  });

  test("a read that throws leaves no transaction open; another connection can still write and the WAL restart", () => {
    const { db, other, count } = pair();
    expect(() =>
      readSnapshot(db, () => {
        count();
        throw new Error("bad row");
      }),
    ).toThrow("bad row");
    expect(db.inTransaction).toBe(false);
    other.exec("INSERT INTO t VALUES (1)");
    // A read transaction left open would keep the checkpoint from copying the new frame.
    expect(other.query("PRAGMA wal_checkpoint(TRUNCATE)").get()).toEqual({ busy: 0, log: 0, checkpointed: 0 });
    expect(count()).toBe(1);
  });

  test.skipIf(process.platform !== "linux")("a connection that read in a snapshot is really closed by close()", () => {
    const { db, other, count, path } = pair();
    other.close();
    readSnapshot(db, count);
    const open = () => descriptorsUnder(path);
    expect(open()).toBeGreaterThan(0);
    db.close();
    expect(open()).toBe(0); // not a zombie waiting for the collector to finalize the BEGIN and COMMIT statements
  });

  test("a transaction SQLite already ended is not committed again: the error of the reads is the one thrown", () => {
    const { db } = pair();
    expect(() =>
      readSnapshot(db, () => {
        db.exec("ROLLBACK"); // as SQLite does itself on some errors
        throw new Error("the original error");
      }),
    ).toThrow("the original error");
    expect(db.inTransaction).toBe(false);
  });

  test("inside a transaction already open, the reads join it (and see its own writes)", () => {
    const { db, count } = pair();
    const seen = db.transaction(() => {
      db.exec("INSERT INTO t VALUES (7)");
      return readSnapshot(db, count);
    })();
    expect(seen).toBe(1);
    expect(db.inTransaction).toBe(false);
  });

  test("a write transaction begun inside the reads is refused, and nothing is written", () => {
    const { db, count } = pair();
    expect(() =>
      readSnapshot(db, () => {
        count();
        return immediate(db, () => db.exec("INSERT INTO t VALUES (1)"));
      }),
    ).toThrow("inside a read snapshot");
    expect(db.inTransaction).toBe(false);
    expect(count()).toBe(0);
    // After the snapshot, and inside a write transaction that joined one, writes go on as before.
    immediate(db, () => db.exec("INSERT INTO t VALUES (2)"));
    db.transaction(() => readSnapshot(db, () => immediate(db, () => db.exec("INSERT INTO t VALUES (3)"))))();
    expect(count()).toBe(2);
  });
});
