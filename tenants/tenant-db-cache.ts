import type { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { existsSync } from "node:fs";
import { openSqlite, type SyncMode } from "../db/connection";
import { runMigrations } from "../db/migrate";
import * as tenantSchema from "../db/tenant/schema";
import { TenantUnavailableError } from "./errors";
import { tenantDbPath } from "./paths";

export type TenantOrm = BunSQLiteDatabase<typeof tenantSchema>;

/** An open tenant database: the raw handle for hot paths and transactions, the drizzle wrapper for queries. */
export interface TenantDb {
  tenantId: string;
  sqlite: Database;
  orm: TenantOrm;
}

/** Applies the tenant schema migrations; replaceable so tests can inject a failing migration. */
export type TenantMigrator = (sqlite: Database, tenantId: string) => void;

export interface TenantDbCacheOptions {
  dataDir: string;
  maxOpen: number;
  synchronous: SyncMode;
  migrator?: TenantMigrator;
  /** Evicted handles close after this delay so a request still awaiting on one is not cut off. */
  closeDelayMs?: number;
  /** Told when a tenant becomes degraded, with the migration's error (the client only learns that it failed). */
  onDegraded?: (tenantId: string, error: string) => void;
}

/** What a request to a degraded tenant is told; the migration's error itself goes to the log and the SA's view. */
export const DEGRADED_MESSAGE =
  "Tenant data is unavailable: its schema migration failed; it is retried in the background";

/**
 * Bounded cache of open tenant files (LRU by last use). Each tenant is migrated once per process start on first use;
 * a failing migration marks it degraded (503 on every request) until the background sweep succeeds.
 */
export class TenantDbCache {
  private readonly open = new Map<string, TenantDb>();
  private readonly attempted = new Set<string>();
  private readonly degraded = new Map<string, string>();
  migrator: TenantMigrator;

  constructor(private readonly opts: TenantDbCacheOptions) {
    this.migrator = opts.migrator ?? ((sqlite) => runMigrations(sqlite, "tenant"));
  }

  /** Creates (or reopens) the tenant file and migrates it now; throws the migration error. Used by provisioning. */
  create(tenantId: string): TenantDb {
    this.attempted.delete(tenantId);
    this.degraded.delete(tenantId);
    this.dropHandle(tenantId);
    const db = this.openFile(tenantId);
    try {
      this.migrator(db.sqlite, tenantId);
    } catch (e) {
      db.sqlite.close();
      throw e;
    }
    this.attempted.add(tenantId);
    this.remember(db);
    return db;
  }

  /** The tenant's database for a request; migration is tried once per process start, then only by the sweep. */
  get(tenantId: string): TenantDb {
    if (this.degraded.has(tenantId)) throw new TenantUnavailableError(DEGRADED_MESSAGE);
    const cached = this.open.get(tenantId);
    if (cached) {
      this.open.delete(tenantId);
      this.open.set(tenantId, cached);
      return cached;
    }
    if (!existsSync(tenantDbPath(this.opts.dataDir, tenantId))) {
      throw new TenantUnavailableError("Tenant data file is missing");
    }
    const db = this.openFile(tenantId);
    if (!this.attempted.has(tenantId)) {
      this.attempted.add(tenantId);
      try {
        this.migrator(db.sqlite, tenantId);
      } catch (e) {
        db.sqlite.close();
        const message = e instanceof Error ? e.message : String(e);
        this.degraded.set(tenantId, message);
        this.opts.onDegraded?.(tenantId, message);
        throw new TenantUnavailableError(DEGRADED_MESSAGE);
      }
    }
    this.remember(db);
    return db;
  }

  /** Retries the migration of every degraded tenant; returns the ids that recovered. */
  retryDegraded(): string[] {
    const recovered: string[] = [];
    for (const tenantId of [...this.degraded.keys()]) {
      const db = this.openFile(tenantId);
      try {
        this.migrator(db.sqlite, tenantId);
        this.degraded.delete(tenantId);
        this.remember(db);
        recovered.push(tenantId);
      } catch (e) {
        db.sqlite.close();
        this.degraded.set(tenantId, e instanceof Error ? e.message : String(e));
      }
    }
    return recovered;
  }

  isDegraded(tenantId: string): boolean {
    return this.degraded.has(tenantId);
  }

  /** The migration error of a degraded tenant (for platform administrators), or null. */
  degradedReason(tenantId: string): string | null {
    return this.degraded.get(tenantId) ?? null;
  }

  openCount(): number {
    return this.open.size;
  }

  /** Closes a tenant's handle (e.g. before its file is dropped). */
  dropHandle(tenantId: string): void {
    const db = this.open.get(tenantId);
    if (db) {
      this.open.delete(tenantId);
      db.sqlite.close();
    }
  }

  /** The handles open now (checkpoints at shutdown and on the sweep). */
  openHandles(): TenantDb[] {
    return [...this.open.values()];
  }

  closeAll(): void {
    for (const db of this.open.values()) db.sqlite.close();
    this.open.clear();
  }

  private openFile(tenantId: string): TenantDb {
    const sqlite = openSqlite(tenantDbPath(this.opts.dataDir, tenantId), {
      kind: "tenant",
      synchronous: this.opts.synchronous,
    });
    return { tenantId, sqlite, orm: drizzle(sqlite, { schema: tenantSchema }) };
  }

  private remember(db: TenantDb): void {
    this.open.set(db.tenantId, db);
    while (this.open.size > this.opts.maxOpen) {
      const [oldestId, oldest] = this.open.entries().next().value as [string, TenantDb];
      this.open.delete(oldestId);
      const delay = this.opts.closeDelayMs ?? 30_000;
      if (delay <= 0) oldest.sqlite.close();
      else setTimeout(() => oldest.sqlite.close(), delay).unref?.();
    }
  }
}
