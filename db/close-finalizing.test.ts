import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { descriptorsUnder as descriptorsIn } from "../test/harness/descriptors";
import { closeFinalizing, openSqlite } from "./connection";

describe("closeFinalizing", () => {
  test.skipIf(process.platform !== "linux")(
    "a closed connection gives its descriptors back at once, whatever statements were prepared and dropped",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "close-finalizing-"));
      const db = closeFinalizing(openSqlite(join(dir, "t.sqlite"), { kind: "tenant" }));
      db.exec("CREATE TABLE t (x)");
      // As drizzle does: one prepare per query, the statement dropped after one use; some collected by now. 100 texts:
      // more than Bun's statement cache keeps (20), so some statements were dropped from it before the close.
      for (let i = 0; i < 300; i++) db.prepare(`SELECT ${i % 100} AS n FROM t`).all();
      Bun.gc(false);
      const kept = db.prepare("SELECT x FROM t WHERE x = ?", [1]); // bound at prepare: tracked and finalized
      expect(kept.all()).toEqual([]);
      expect(descriptorsIn(dir)).toBeGreaterThan(0);
      db.close();
      expect(descriptorsIn(dir)).toBe(0); // no zombie waiting for the collector
    },
  );

  test("prepare without bound parameters reuses one statement per SQL text", () => {
    const db = closeFinalizing(openSqlite(":memory:"));
    expect(db.prepare("SELECT 1 AS n")).toBe(db.prepare("SELECT 1 AS n"));
    expect(db.prepare("SELECT 1 AS n").get()).toEqual({ n: 1 });
    db.close();
  });
});
