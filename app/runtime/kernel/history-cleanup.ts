import type { Database } from "bun:sqlite";
import type { Kernel } from "./kernel";

const DAY_MS = 86_400_000;

/** Largest history time-to-live accepted, in days (100 years: "keep" is null, not a huge number). */
export const MAX_HISTORY_TTL_DAYS = 36_500;

/** What one batch removed: process instances, cases, all their rows, and the ids by tenant (processes and cases). */
export interface CleanupBatch {
  instances: number;
  cases: number;
  rows: number;
  byTenant: Map<string, string[]>;
}

type Kind = "BPMN" | "CMMN";

interface Target {
  tenant_id: string;
  key: string;
  ttl: number;
  type: Kind;
}

/**
 * The history cleanup of ended process instances and cases (Camunda's history cleanup, removal-time strategy "end"):
 * an instance or case whose definition key has a time-to-live (its own, else the tenant default) is removed once it
 * ended more than that many days ago, with every row keyed by it. A batch is one short transaction; an interrupted run
 * leaves whole instances only, so the next run simply goes on. A child (a called process, a process or case a case
 * started) whose parent still runs is kept until the parent ends; the counters of instance_counts follow the deletes
 * by their triggers, in the same transaction.
 */
export function createHistoryCleanup(k: Pick<Kernel, "db" | "clock" | "tx" | "writable">) {
  const { db } = k;
  const q = queries(db);

  /** The keys with a time-to-live now: explicit per definition, or the tenant default for the keys without one. */
  const targets = (): Target[] => q.targets.all();

  /** Up to `limit` instances and cases whose time-to-live has passed, oldest first within each key. */
  const expired = (limit: number, now: number) => {
    const found: { id: string; tenant_id: string; kind: Kind }[] = [];
    for (const t of targets()) {
      if (found.length >= limit) break;
      const cutoff = now - t.ttl * DAY_MS;
      for (const r of q.of[t.type].expired.all(t.tenant_id, t.key, cutoff, limit - found.length))
        found.push({ ...r, kind: t.type });
    }
    return found;
  };

  return {
    /**
     * Resolves when a batch may write: not while the checkpointer holds the engine's writes to let its WAL start over
     * (db/write-gate.ts). A cleanup writes as fast as it deletes; without the wait the WAL would never restart meanwhile.
     */
    whenWritable: () => k.writable(),
    /** Removes one batch of at most `limit` expired instances and cases in one transaction; none: nothing is due. */
    runBatch(limit: number): CleanupBatch {
      return k.tx(() => {
        const batch: CleanupBatch = { instances: 0, cases: 0, rows: 0, byTenant: new Map() };
        for (const { id, tenant_id, kind } of expired(limit, k.clock())) {
          const of = q.of[kind];
          for (const del of of.deletes) batch.rows += del.run(tenant_id, id).changes;
          batch.rows += of.root.run(id).changes;
          if (kind === "BPMN") batch.instances++;
          else batch.cases++;
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
    /** Waits first while the checkpointer holds the engine's writes, as the batches do. */
    async setTenantDefault(tenantId: string, days: number | null): Promise<void> {
      await k.writable();
      k.tx(() => q.putDefault.run(tenantId, days, new Date(k.clock()).toISOString()));
    },
    /** How many ended instances and cases are due for removal now (the metrics' backlog; bounded so it stays cheap). */
    backlog(cap = 10_000): number {
      return expired(cap, k.clock()).length;
    },
  };
}

function queries(db: Database) {
  const ofInstance = (table: string, column = "instance_id") =>
    // `+tenant_id`: the key by instance must be the one used (involvements' principal index would scan the tenant).
    db.query<unknown, [string, string]>(`DELETE FROM ${table} WHERE +tenant_id = ? AND ${column} = ?`);
  const ofTasks = (table: string) =>
    db.query<unknown, [string, string]>(
      `DELETE FROM ${table} WHERE tenant_id = ? AND task_id IN (SELECT id FROM tasks WHERE instance_id = ?)`,
    );
  // A parent that still runs keeps its child: a process calls processes, a case starts processes and cases (its id is
  // then the process's parent_instance_id, or the case's parent_case_id).
  const parentRuns = (parent: string) =>
    `EXISTS (SELECT 1 FROM process_instances p WHERE p.id = ${parent} AND p.state IN ('ACTIVE','SUSPENDED'))
     OR EXISTS (SELECT 1 FROM case_instances c WHERE c.id = ${parent} AND c.state = 'ACTIVE')`;
  type Expired = { id: string; tenant_id: string };
  return {
    targets: db.query<Target, []>(
      `SELECT DISTINCT s.tenant_id, s.key, s.history_ttl_days AS ttl, d.type FROM definition_settings s
         JOIN definitions d ON d.tenant_id = s.tenant_id AND d.key = s.key AND d.type IN ('BPMN','CMMN')
       WHERE s.history_ttl_days IS NOT NULL
       UNION
       SELECT DISTINCT d.tenant_id, d.key, h.default_ttl_days AS ttl, d.type FROM history_settings h
         JOIN definitions d ON d.tenant_id = h.tenant_id AND d.type IN ('BPMN','CMMN')
         LEFT JOIN definition_settings s ON s.tenant_id = d.tenant_id AND s.key = d.key
       WHERE h.default_ttl_days IS NOT NULL AND s.history_ttl_days IS NULL`,
    ),
    of: {
      // The partial history indexes give the oldest ended instances (cases) of the key.
      BPMN: {
        expired: db.query<Expired, [string, string, number, number]>(
          `SELECT i.id, i.tenant_id FROM process_instances i INDEXED BY process_instances_history_idx
           WHERE i.tenant_id = ? AND i.definition_key = ? AND i.state IN ('COMPLETED','CANCELLED') AND i.end_time < ?
             AND NOT (${parentRuns("i.parent_instance_id")})
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
        root: db.query<unknown, [string]>("DELETE FROM process_instances WHERE id = ?"),
      },
      CMMN: {
        expired: db.query<Expired, [string, string, number, number]>(
          `SELECT i.id, i.tenant_id FROM case_instances i INDEXED BY case_instances_history_idx
           WHERE i.tenant_id = ? AND i.definition_key = ? AND i.state <> 'ACTIVE' AND i.end_time < ?
             AND NOT (${parentRuns("i.parent_case_id")})
           ORDER BY i.end_time LIMIT ?`,
        ),
        // A case's plan items are its activity history, its variables are a column of its row; its tasks, their
        // comments and candidates, its involvements and its timer jobs are keyed by the case id.
        deletes: [
          ofTasks("task_comments"),
          ofTasks("task_candidates"),
          ofInstance("tasks"),
          ofInstance("case_plan_items", "case_instance_id"),
          ofInstance("involvements"),
          ofInstance("jobs"),
        ],
        root: db.query<unknown, [string]>("DELETE FROM case_instances WHERE id = ?"),
      },
    } satisfies Record<Kind, unknown>,
    getDefault: db.query<{ ttl: number | null }, [string]>(
      "SELECT default_ttl_days AS ttl FROM history_settings WHERE tenant_id = ?",
    ),
    putDefault: db.query<unknown, [string, number | null, string]>(
      `INSERT INTO history_settings (tenant_id, default_ttl_days, updated_at) VALUES (?,?,?)
       ON CONFLICT(tenant_id) DO UPDATE SET default_ttl_days = excluded.default_ttl_days, updated_at = excluded.updated_at`,
    ),
  };
}

export type HistoryCleanup = ReturnType<typeof createHistoryCleanup>;
