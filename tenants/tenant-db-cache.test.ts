import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TenantDbCache } from "./tenant-db-cache";
import { runMigrations } from "../db/migrate";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function cache(maxOpen: number, migrator?: (db: import("bun:sqlite").Database) => void) {
  const dataDir = mkdtempSync(join(tmpdir(), "pms-cache-"));
  dirs.push(dataDir);
  return new TenantDbCache({
    dataDir,
    maxOpen,
    synchronous: "NORMAL",
    migrator: migrator ?? ((db) => runMigrations(db, "tenant")),
  });
}

describe("tenant database cache", () => {
  test("keeps at most maxOpen handles open, evicting the least recently used", () => {
    const c = cache(2);
    for (const id of ["t1", "t2", "t3"]) c.create(id);
    expect(c.openCount()).toBe(2);
    c.get("t1");
    c.get("t2");
    c.get("t3");
    expect(c.openCount()).toBe(2);
    // Many tenants stay within the bound.
    for (let i = 0; i < 40; i++) c.create(`many-${i}`);
    expect(c.openCount()).toBe(2);
    c.closeAll();
  });

  test("a reopened tenant after eviction still answers queries", () => {
    const c = cache(1);
    c.create("a").sqlite.run("insert into tenant_meta(key, value) values ('k', 'v')");
    c.create("b");
    const row = c.get("a").sqlite.query("select value from tenant_meta where key = 'k'").get() as { value: string };
    expect(row.value).toBe("v");
    c.closeAll();
  });

  test("migrates each tenant once per process start; a failure degrades it until retryDegraded succeeds", () => {
    let calls = 0;
    let fail = false;
    const c = cache(4, (db) => {
      calls++;
      if (fail) throw new Error("boom");
      runMigrations(db, "tenant");
    });
    c.create("x");
    c.dropHandle("x");
    c.get("x");
    expect(calls).toBe(1);
    const fresh = new TenantDbCache({
      dataDir: (c as unknown as { opts: { dataDir: string } }).opts.dataDir,
      maxOpen: 4,
      synchronous: "NORMAL",
      migrator: () => {
        throw new Error("boom");
      },
    });
    expect(() => fresh.get("x")).toThrow(/migration failed/);
    expect(fresh.isDegraded("x")).toBe(true);
    expect(fresh.degradedReason("x")).toBe("boom");
    fresh.migrator = (db) => runMigrations(db, "tenant");
    expect(fresh.retryDegraded()).toEqual(["x"]);
    expect(fresh.get("x").tenantId).toBe("x");
    fail = true;
    fresh.closeAll();
    c.closeAll();
  });

  test("a leased handle stays open past eviction, is reused rather than reopened, and closes when released", () => {
    const c = cache(2);
    for (const id of ["a", "b", "c"]) c.create(id);
    const a = c.acquire("a");
    c.get("b");
    c.get("c");
    // a is the least recently used but leased: b goes instead, a is still the one handle of its file.
    expect(c.openHandles().map((h) => h.tenantId)).toEqual(["a", "c"]);
    for (let i = 0; i < 5; i++) c.create(`x${i}`);
    expect(c.openHandles().map((h) => h.tenantId)).toEqual(["a", "x4"]);
    expect(c.acquire("a")).toBe(a); // same handle: no second one for the file
    c.release(a);
    c.release(a);
    expect(a.sqlite.query("select 1 as one").get()).toEqual({ one: 1 }); // within the bound: kept, now free
    c.closeAll();
  });

  test("with every handle leased the cache goes over the bound only by the leased ones, back on release", () => {
    const c = cache(1);
    c.create("a");
    c.create("b");
    const a = c.acquire("a");
    const b = c.acquire("b");
    expect(c.openCount()).toBe(2);
    c.release(a);
    expect(c.openCount()).toBe(1);
    expect(() => a.sqlite.query("select 1").get()).toThrow();
    expect(c.openHandles()).toEqual([b]);
    c.release(a); // a release without a lease changes nothing
    expect(c.openCount()).toBe(1);
    c.closeAll();
  });

  test("an unleased handle is closed at once when evicted (no delayed second handle)", () => {
    const c = cache(1);
    const a = c.create("a");
    c.create("b");
    expect(() => a.sqlite.query("select 1").get()).toThrow();
    expect(c.get("a")).not.toBe(a);
    expect(c.openCount()).toBe(1);
    c.closeAll();
  });
});
