import type { Database } from "bun:sqlite";
import { immediate } from "../../../db/connection";
import type { Kernel } from "../kernel/kernel";
import type { decisions } from "../../../db/engine/schema";
import type { SqlRow } from "../kernel/sql-row";

/** A stored version of a DMN decision. */
export type DecisionVersion = typeof decisions.$inferSelect;
type DecisionRow = SqlRow<DecisionVersion>;

const toDecision = (r: DecisionRow): DecisionVersion => ({
  id: r.id,
  tenantId: r.tenant_id,
  key: r.key,
  name: r.name,
  version: r.version,
  deploymentId: r.deployment_id,
  xml: r.xml,
  sourceTemplate: r.source_template,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

/** One decision of a file being deployed. */
export interface DecisionToStore {
  key: string;
  name: string;
}

/**
 * The decisions table of the engine database: every deployed version of a tenant's DMN decisions. Versions follow the
 * rule of process and case definitions (a new deployment is the next version of its key; versions are never edited).
 * Its writes wait first while the checkpointer holds the engine's writes (the kernel's `writable`): a write then would wait
 * for SQLite's lock in the busy handler, on the event loop.
 */
export function createDecisionStore(kernel: Kernel) {
  const { db } = kernel;
  const writable = () => kernel.writable();
  const q = {
    latest: db.query<DecisionRow, [string, string]>(
      "SELECT * FROM decisions WHERE tenant_id = ? AND key = ? ORDER BY version DESC LIMIT 1",
    ),
    versions: db.query<DecisionRow, [string, string]>(
      "SELECT * FROM decisions WHERE tenant_id = ? AND key = ? ORDER BY version DESC",
    ),
    latestOfEach: db.query<DecisionRow, [string, string]>(
      `SELECT d.* FROM decisions d
       JOIN (SELECT key, MAX(version) AS v FROM decisions WHERE tenant_id = ? GROUP BY key) m ON m.key = d.key AND m.v = d.version
       WHERE d.tenant_id = ? ORDER BY d.key`,
    ),
    nextVersion: db.query<{ v: number | null }, [string, string]>(
      "SELECT MAX(version) AS v FROM decisions WHERE tenant_id = ? AND key = ?",
    ),
    insert: db.query(
      `INSERT INTO decisions (id, tenant_id, key, name, version, deployment_id, xml, source_template, created_by, created_at)
       VALUES (?,?,?,?,?,?,?,?,?,?)`,
    ),
    remove: db.query("DELETE FROM decisions WHERE tenant_id = ? AND key = ?"),
    fromTemplate: db.query<{ one: number }, [string, string]>(
      "SELECT 1 AS one FROM decisions WHERE tenant_id = ? AND source_template = ? LIMIT 1",
    ),
  };
  return {
    /** The latest version of a key, or null. */
    latest: (tenantId: string, key: string): DecisionVersion | null => {
      const r = q.latest.get(tenantId, key);
      return r ? toDecision(r) : null;
    },
    /** Every version of a key, newest first. */
    versions: (tenantId: string, key: string): DecisionVersion[] => q.versions.all(tenantId, key).map(toDecision),
    /** The latest version of every key of the tenant, by key. */
    latestOfEach: (tenantId: string): DecisionVersion[] => q.latestOfEach.all(tenantId, tenantId).map(toDecision),
    /** Stores the next version of each decision of one file, all or nothing; returns what was stored. */
    async deploy(
      tenantId: string,
      found: DecisionToStore[],
      file: { xml: string; createdBy: string | null; sourceTemplate: string | null; createdAt: string },
    ): Promise<{ deploymentId: string; decisions: Array<DecisionToStore & { version: number }> }> {
      await writable();
      const deploymentId = crypto.randomUUID();
      const stored = immediate(db, () =>
        found.map((d) => {
          const version = (q.nextVersion.get(tenantId, d.key)?.v ?? 0) + 1;
          q.insert.run(
            crypto.randomUUID(),
            tenantId,
            d.key,
            d.name,
            version,
            deploymentId,
            file.xml,
            file.sourceTemplate,
            file.createdBy,
            file.createdAt,
          );
          return { ...d, version };
        }),
      );
      return { deploymentId, decisions: stored };
    },
    /** Removes every version of a key; returns how many rows went. */
    async remove(tenantId: string, key: string): Promise<number> {
      await writable();
      return q.remove.run(tenantId, key).changes;
    },
    /** Whether the tenant already holds a copy of a global template (provisioning seeds each once). */
    hasTemplateCopy: (tenantId: string, templateKey: string): boolean => !!q.fromTemplate.get(tenantId, templateKey),
  };
}

export type DecisionStore = ReturnType<typeof createDecisionStore>;
