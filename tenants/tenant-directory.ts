import { eq } from "drizzle-orm";
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as platformSchema from "../db/platform/schema";
import { normalizeSlug } from "./slug";

/** Drizzle over the platform database; `$client` is its bun:sqlite handle (for `immediate` transactions). */
export type PlatformOrm = BunSQLiteDatabase<typeof platformSchema> & { $client: Database };
export type TenantStatus = "CREATING" | "ACTIVE" | "SUSPENDED" | "DEACTIVATED" | "DROPPED" | "FAILED";

export interface TenantRecord {
  id: string;
  slug: string;
  name: string;
  status: TenantStatus;
  errorMessage: string | null;
}

/**
 * In-memory view of the tenants table. This process is the only writer of the platform database, so the view is
 * authoritative and a request's tenant check costs a map lookup instead of a query.
 */
export class TenantDirectory {
  private byId = new Map<string, TenantRecord>();
  private loaded = false;

  constructor(
    private readonly platform: PlatformOrm,
    private readonly now: () => Date,
  ) {}

  get(id: string): TenantRecord | undefined {
    this.load();
    return this.byId.get(id);
  }

  /** Case-insensitive: slugs are stored normalised, so the caller's spelling is normalised too. */
  bySlug(slug: string): TenantRecord | undefined {
    this.load();
    const wanted = normalizeSlug(slug);
    for (const t of this.byId.values()) if (t.slug === wanted) return t;
    return undefined;
  }

  all(): TenantRecord[] {
    this.load();
    return [...this.byId.values()];
  }

  /** Writes a status change to the table and the view together. */
  setStatus(id: string, status: TenantStatus, errorMessage: string | null = null): TenantRecord | undefined {
    this.platform
      .update(platformSchema.tenants)
      .set({ status, errorMessage, updatedAt: this.now().toISOString() })
      .where(eq(platformSchema.tenants.id, id))
      .run();
    return this.refresh(id);
  }

  /** Re-reads one tenant after a write made elsewhere. */
  refresh(id: string): TenantRecord | undefined {
    this.load();
    const row = this.platform.select().from(platformSchema.tenants).where(eq(platformSchema.tenants.id, id)).get();
    if (!row) {
      this.byId.delete(id);
      return undefined;
    }
    const rec = toRecord(row);
    this.byId.set(id, rec);
    return rec;
  }

  private load(): void {
    if (this.loaded) return;
    for (const row of this.platform.select().from(platformSchema.tenants).all()) this.byId.set(row.id, toRecord(row));
    this.loaded = true;
  }
}

function toRecord(row: typeof platformSchema.tenants.$inferSelect): TenantRecord {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    status: row.status as TenantStatus,
    errorMessage: row.errorMessage,
  };
}
