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
    closeDelayMs: 0,
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
});
