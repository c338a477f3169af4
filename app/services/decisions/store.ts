import { and, desc, eq, max, sql } from "drizzle-orm";
import { decisions } from "../../../db/engine/schema";
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type * as engineSchema from "../../../db/engine/schema";
import type { Clock } from "../clock";
import { NotFoundError } from "../errors";
import { prepared } from "../prepared";

export type DecisionRow = typeof decisions.$inferSelect;

/** The engine-database handles the decision store uses (moving into app/runtime; the platform satisfies it). */
export interface DecisionDb {
  engineDb: BunSQLiteDatabase<typeof engineSchema>;
  engineSqlite: Database;
  clock: Clock;
}

/** Latest version of one decision key in a tenant, or 404. */
export function latestDecision(p: DecisionDb, tenantId: string, key: string): DecisionRow {
  const row = prepared(p.engineDb, "latestDecision", () =>
    p.engineDb
      .select()
      .from(decisions)
      .where(and(eq(decisions.tenantId, sql.placeholder("tenantId")), eq(decisions.key, sql.placeholder("key"))))
      .orderBy(desc(decisions.version))
      .limit(1)
      .prepare(),
  ).get({ tenantId, key });
  if (!row) throw new NotFoundError(`Decision '${key}' not found`);
  return row;
}

export function decisionVersions(p: DecisionDb, tenantId: string, key: string): DecisionRow[] {
  return p.engineDb
    .select()
    .from(decisions)
    .where(and(eq(decisions.tenantId, tenantId), eq(decisions.key, key)))
    .orderBy(desc(decisions.version))
    .all();
}

export function nextVersion(p: DecisionDb, tenantId: string, key: string): number {
  const r = p.engineDb
    .select({ v: max(decisions.version) })
    .from(decisions)
    .where(and(eq(decisions.tenantId, tenantId), eq(decisions.key, key)))
    .get();
  return (r?.v ?? 0) + 1;
}

/** Latest version of every decision key of a tenant. */
export function latestDecisions(p: DecisionDb, tenantId: string): DecisionRow[] {
  return p.engineDb
    .all(sql`
    select d.* from decisions d
    join (select key, max(version) v from decisions where tenant_id = ${tenantId} group by key) m
      on m.key = d.key and m.v = d.version
    where d.tenant_id = ${tenantId}
    order by d.key`)
    .map((r) => {
      const row = r as Record<string, unknown>;
      return {
        id: row.id,
        tenantId: row.tenant_id,
        key: row.key,
        name: row.name,
        version: row.version,
        deploymentId: row.deployment_id,
        xml: row.xml,
        sourceTemplate: row.source_template,
        createdBy: row.created_by,
        createdAt: row.created_at,
      } as DecisionRow;
    });
}
