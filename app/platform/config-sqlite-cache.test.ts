import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config";
import { createPlatform } from "./platform";

const configWith = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "config-cache-")), ...env });
const cacheOf = (db: { query: (sql: string) => { get: () => unknown } }) =>
  (db.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;

describe("ENGINE_CACHE_MB and TENANT_CACHE_KB", () => {
  test("default to 16 MiB and 256 KiB; a value that is not a whole number in range keeps the default", () => {
    expect(configWith({}).sqliteCache).toEqual({ engineKib: 16 * 1024, tenantKib: 256 });
    expect(configWith({ ENGINE_CACHE_MB: "64", TENANT_CACHE_KB: "2048" }).sqliteCache).toEqual({
      engineKib: 64 * 1024,
      tenantKib: 2048,
    });
    expect(configWith({ ENGINE_CACHE_MB: "0", TENANT_CACHE_KB: "10" }).sqliteCache).toEqual({
      engineKib: 16 * 1024,
      tenantKib: 256,
    });
    expect(configWith({ ENGINE_CACHE_MB: "1.5", TENANT_CACHE_KB: "lots" }).sqliteCache.engineKib).toBe(16 * 1024);
  });

  test("the engine connection and each tenant file open with the configured page cache", async () => {
    const platform = createPlatform({
      config: configWith({ ENGINE_CACHE_MB: "24", TENANT_CACHE_KB: "512" }),
      log: () => {},
    });
    try {
      expect(cacheOf(platform.engineSqlite)).toBe(-24 * 1024);
      const id = Bun.randomUUIDv7();
      platform.tenantDbs.create(id);
      expect(cacheOf(platform.tenantDbs.get(id).sqlite)).toBe(-512);
    } finally {
      await platform.stop();
    }
  });
});
