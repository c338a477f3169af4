import type { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { existsSync } from "node:fs";
import { closeFinalizing, openSqlite, type SyncMode } from "../db/connection";
import { runMigrations } from "../db/migrate";
import * as tenantSchema from "../db/tenant/schema";
import { TenantUnavailableError } from "./errors";
import { tenantDbPath } from "./paths";

export type TenantOrm = BunSQLiteDatabase<typeof tenantSchema>;

/** Seals the secrets a tenant stores and must read back (secret tenant variables); given by app/platform. */
export interface TenantSecrets {
  seal(plain: string): string;
  open(sealed: string): string;
}

/**
 * An open tenant database: the raw handle for hot paths and transactions, the drizzle wrapper for queries, and the
 * box its secrets are sealed with (the key stays with the service, so a copy of the file alone does not reveal them).
 */
export interface TenantDb {
  tenantId: string;
  sqlite: Database;
  orm: TenantOrm;
  secrets: TenantSecrets;
}

const NO_SECRETS: TenantSecrets = {
  seal: () => {
    throw new Error("no secret box is configured for tenant databases");
  },
  open: () => {
    throw new Error("no secret box is configured for tenant databases");
  },
};

/** Applies the tenant schema migrations; replaceable so tests can inject a failing migration. */
export type TenantMigrator = (sqlite: Database, tenantId: string) => void;

export interface TenantDbCacheOptions {
  dataDir: string;
  maxOpen: number;
  synchronous: SyncMode;
  /** Each open tenant file's page cache in KiB (the tenant kind's default when absent). */
  cacheKib?: number;
  migrator?: TenantMigrator;
  /** The box of the tenants' secrets (every open handle carries it). */
  secrets?: TenantSecrets;
  /** Told when a tenant becomes degraded, with the migration's error (the client only learns that it failed). */
  onDegraded?: (tenantId: string, error: string) => void;
}

/** What a request to a degraded tenant is told; the migration's error itself goes to the log and the SA's view. */
export const DEGRADED_MESSAGE =
  "Tenant data is unavailable: its schema migration failed; it is retried in the background";

interface Handle {
  db: TenantDb;
  /** Running commands (requests, jobs) holding the handle; it is never closed while this is above 0. */
  leases: number;
}

/**
 * Bounded cache of open tenant files (LRU by last use): at most `maxOpen` handles are open, plus those that running
 * commands still hold a lease on. One handle per file: an evicted handle still leased stays in the map (so a new
 * request reuses it rather than opening a second one) and is closed when its last lease ends. Each tenant is migrated
 * once per process start on first use; a failing migration marks it degraded (503 on every request) until the
 * background sweep succeeds.
 */
export class TenantDbCache {
  /** Insertion order is recency order: the first entry is the least recently used. */
  private readonly open = new Map<string, Handle>();
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

  /**
   * The tenant's database for synchronous use (no await between this call and the last use of the handle): a later
   * open may close it once it is the least recently used. Code that awaits holds a lease instead (`acquire`).
   */
  get(tenantId: string): TenantDb {
    return this.touch(tenantId).db;
  }

  /** The tenant's database, kept open until the matching `release` (one per acquire), whatever opens meanwhile. */
  acquire(tenantId: string): TenantDb {
    const handle = this.touch(tenantId);
    handle.leases++;
    return handle.db;
  }

  /** Ends a lease; an over-bound cache then closes its least recently used free handles. */
  release(db: TenantDb): void {
    const handle = this.open.get(db.tenantId);
    if (handle?.db !== db || handle.leases === 0) return;
    handle.leases--;
    this.evict();
  }

  private touch(tenantId: string): Handle {
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
    return this.remember(db);
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

  /** Closes a tenant's handle whatever its leases (before its file is dropped: the tenant is gone). */
  dropHandle(tenantId: string): void {
    const handle = this.open.get(tenantId);
    if (handle) {
      this.open.delete(tenantId);
      handle.db.sqlite.close();
    }
  }

  /** The handles open now (checkpoints at shutdown and on the sweep). */
  openHandles(): TenantDb[] {
    return [...this.open.values()].map((h) => h.db);
  }

  closeAll(): void {
    for (const handle of this.open.values()) handle.db.sqlite.close();
    this.open.clear();
  }

  private openFile(tenantId: string): TenantDb {
    const sqlite = closeFinalizing(
      openSqlite(tenantDbPath(this.opts.dataDir, tenantId), {
        kind: "tenant",
        synchronous: this.opts.synchronous,
        cacheKib: this.opts.cacheKib,
      }),
    );
    const secrets = this.opts.secrets ?? NO_SECRETS;
    return { tenantId, sqlite, orm: drizzle(sqlite, { schema: tenantSchema }), secrets };
  }

  private remember(db: TenantDb): Handle {
    const handle = { db, leases: 0 };
    this.open.set(db.tenantId, handle);
    this.evict(handle);
    return handle;
  }

  /** Closes free handles from the least recently used end until the bound holds (leased ones are skipped). */
  private evict(keep?: Handle): void {
    if (this.open.size <= this.opts.maxOpen) return;
    for (const [tenantId, handle] of this.open) {
      if (this.open.size <= this.opts.maxOpen) return;
      if (handle.leases > 0 || handle === keep) continue;
      this.open.delete(tenantId);
      handle.db.sqlite.close();
    }
  }
}
