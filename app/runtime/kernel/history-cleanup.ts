import type { Database } from "bun:sqlite";
import type { Kernel } from "./kernel";

const DAY_MS = 86_400_000;

/** Largest history time-to-live accepted, in days (100 years: "keep" is null, not a huge number). */
export const MAX_HISTORY_TTL_DAYS = 36_500;

/** What one batch removed: instance ids by tenant (their tenant-database rows go next), and the row counts. */
export interface CleanupBatch {
  instances: number;
  rows: number;
  byTenant: Map<string, string[]>;
}

interface Target {
  tenant_id: string;
  key: string;
  ttl: number;
}

/**
 * The history cleanup of ended process instances (Camunda's history cleanup, removal-time strategy "end"): an
 * instance whose definition key has a time-to-live (its own, else the tenant default) is removed once it ended more
 * than that many days ago, with every row keyed by it. A batch is one short transaction; an interrupted run leaves
 * whole instances only, so the next run simply goes on. A child instance whose parent still runs is kept until the
 * parent ends; the instance counters move in the same transaction.
 */
export function createHistoryCleanup(k: Pick<Kernel, "db" | "clock" | "tx">) {
  const { db } = k;
  const q = queries(db);

  /** The keys with a time-to-live now: explicit per definition, or the tenant default for the keys without one. */
  const targets = (): Target[] => q.targets.all();

  /** Up to `limit` instances whose time-to-live has passed, oldest first, across the targets. */
  const expired = (limit: number, now: number) => {
    const found: { id: string; tenant_id: string }[] = [];
    for (const t of targets()) {
      if (found.length >= limit) break;
      const cutoff = now - t.ttl * DAY_MS;
      found.push(...q.expired.all(t.tenant_id, t.key, cutoff, limit - found.length));
    }
    return found;
  };

  return {
    /** Removes one batch of at most `limit` expired instances in one transaction; 0 instances: nothing is due. */
    runBatch(limit: number): CleanupBatch {
      return k.tx(() => {
        const batch: CleanupBatch = { instances: 0, rows: 0, byTenant: new Map() };
        for (const { id, tenant_id } of expired(limit, k.clock())) {
          for (const del of q.deletes) batch.rows += del.run(tenant_id, id).changes;
          batch.rows += q.instance.run(id).changes;
          q.countDown.run(tenant_id);
          batch.instances++;
          const ids = batch.byTenant.get(tenant_id) ?? [];
          ids.push(id);
          batch.byTenant.set(tenant_id, ids);
        }
        return batch;
      });
    },
    /** The tenant default time-to-live in days (null: ended instances of keys without their own are kept). */
    tenantDefault(tenantId: string): number | null {
      return q.getDefault.get(tenantId)?.ttl ?? null;
    },
    setTenantDefault(tenantId: string, days: number | null): void {
      k.tx(() => q.putDefault.run(tenantId, days, new Date(k.clock()).toISOString()));
    },
    /** How many ended instances are due for removal now (the metrics' backlog; bounded so it stays cheap). */
    backlog(cap = 10_000): number {
      return expired(cap, k.clock()).length;
    },
  };
}

function queries(db: Database) {
  const ofInstance = (table: string) =>
    // `+tenant_id`: the key by instance must be the one used (involvements' principal index would scan the tenant).
    db.query<unknown, [string, string]>(`DELETE FROM ${table} WHERE +tenant_id = ? AND instance_id = ?`);
  const ofTasks = (table: string) =>
    db.query<unknown, [string, string]>(
      `DELETE FROM ${table} WHERE tenant_id = ? AND task_id IN (SELECT id FROM tasks WHERE instance_id = ?)`,
    );
  return {
    targets: db.query<Target, []>(
      `SELECT s.tenant_id, s.key, s.history_ttl_days AS ttl FROM definition_settings s WHERE s.history_ttl_days IS NOT NULL
       UNION
       SELECT DISTINCT d.tenant_id, d.key, h.default_ttl_days AS ttl FROM history_settings h
         JOIN definitions d ON d.tenant_id = h.tenant_id AND d.type = 'BPMN'
         LEFT JOIN definition_settings s ON s.tenant_id = d.tenant_id AND s.key = d.key
       WHERE h.default_ttl_days IS NOT NULL AND s.history_ttl_days IS NULL`,
    ),
    // The partial history index gives the oldest ended instances of the key; a parent still running keeps its child.
    expired: db.query<{ id: string; tenant_id: string }, [string, string, number, number]>(
      `SELECT i.id, i.tenant_id FROM process_instances i INDEXED BY process_instances_history_idx
       WHERE i.tenant_id = ? AND i.definition_key = ? AND i.state IN ('COMPLETED','CANCELLED') AND i.end_time < ?
         AND NOT EXISTS (SELECT 1 FROM process_instances p WHERE p.id = i.parent_instance_id AND p.state IN ('ACTIVE','SUSPENDED'))
       ORDER BY i.end_time LIMIT ?`,
    ),
    // Every engine table keyed by instance (directly or through its tasks); comments and candidates before the tasks.
    deletes: [
      ofTasks("task_comments"),
      ofTasks("task_candidates"),
      ofInstance("tasks"),
      ofInstance("activity_log"),
      ofInstance("variables"),
      ofInstance("executions"),
      ofInstance("involvements"),
      ofInstance("jobs"),
      ofInstance("event_subscriptions"),
    ],
    instance: db.query<unknown, [string]>("DELETE FROM process_instances WHERE id = ?"),
    getDefault: db.query<{ ttl: number | null }, [string]>(
      "SELECT default_ttl_days AS ttl FROM history_settings WHERE tenant_id = ?",
    ),
    putDefault: db.query<unknown, [string, number | null, string]>(
      `INSERT INTO history_settings (tenant_id, default_ttl_days, updated_at) VALUES (?,?,?)
       ON CONFLICT(tenant_id) DO UPDATE SET default_ttl_days = excluded.default_ttl_days, updated_at = excluded.updated_at`,
    ),
    countDown: db.query<unknown, [string]>("UPDATE instance_counts SET ended = ended - 1 WHERE tenant_id = ?"),
  };
}

export type HistoryCleanup = ReturnType<typeof createHistoryCleanup>;
