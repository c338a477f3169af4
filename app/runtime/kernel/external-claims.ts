import type { Database } from "bun:sqlite";
import { EXTERNAL_JOB } from "./job-executor";
import type { JobRow } from "./rows";

// Which robot jobs a runner may take (due, unlocked or with an expired lock, not of a suspended instance), read through
// partial indexes (db/engine/schema/jobs.ts): the unlocked jobs in due order (or by priority first, as Camunda's client
// asks by default), the held ones in lock-expiry order.
// One query over all of them walked past every held job on each claim, and workers that fetch ahead (Camunda's client
// locks more while it completes what it holds) hold most of the queue: each claim, and each long poll's look for the
// next wake-up, grew with it.

const topicsIn = (n: number, from: number) =>
  `json_extract(j.data, '$.topic') IN (${Array.from({ length: n }, (_, i) => `?${i + from}`).join(",")})`;
// SQLite's planner prefers the wider jobs_tenant_kind_due_idx (and then walks the held jobs): the index is named.
const UNLOCKED = "jobs j INDEXED BY jobs_robot_free_due_idx";
const UNLOCKED_BY_PRIORITY = "jobs j INDEXED BY jobs_robot_free_priority_idx";
const HELD = "jobs j INDEXED BY jobs_robot_held_expiry_idx";
const base = (n: number, from: string) => `SELECT j.* FROM ${from}
  LEFT JOIN process_instances i ON i.id = j.instance_id
  WHERE j.tenant_id = ?1 AND j.kind = '${EXTERNAL_JOB}' AND j.state = 'EXECUTABLE' AND j.due_at <= ?2
  AND (i.id IS NULL OR i.state = 'ACTIVE') AND ${topicsIn(n, 3)}`;
// the expression of jobs_robot_free_priority_idx, written alike so that the index gives the order
const priority = "coalesce(json_extract(j.data, '$.priority'), 0) DESC, ";
/** ?1 tenant, ?2 now, ?3… topics, then the limit. */
const takeSql = (n: number, held: boolean, byPriority: boolean) =>
  `${base(n, held ? HELD : byPriority ? UNLOCKED_BY_PRIORITY : UNLOCKED)} AND ${held ? "j.lock_owner IS NOT NULL AND j.lock_expires_at < ?2" : "j.lock_owner IS NULL"}
  ORDER BY ${byPriority ? priority : ""}${held ? "j.lock_expires_at" : "j.due_at"} LIMIT ?${n + 3}`;

const priorityOf = (row: JobRow) => (JSON.parse(row.data) as { priority?: number }).priority ?? 0;

/** Up to `limit` takeable jobs of the topics: by priority first when asked, then the oldest due. */
export function takeableJobs(
  db: Database,
  r: { tenantId: string; topics: string[]; usePriority?: boolean },
  now: number,
  limit: number,
): JobRow[] {
  const n = r.topics.length;
  const args = [r.tenantId, now, ...r.topics, limit];
  const byPriority = !!r.usePriority;
  const free = db.query<JobRow, (string | number)[]>(takeSql(n, false, byPriority)).all(...args);
  // Expired locks are rare: a worker that died or gave up. Merged into the order the one query had.
  const expired = db.query<JobRow, (string | number)[]>(takeSql(n, true, byPriority)).all(...args);
  if (!expired.length) return free;
  return [...free, ...expired]
    .sort((a, b) => (byPriority ? priorityOf(b) - priorityOf(a) : 0) || a.due_at - b.due_at)
    .slice(0, limit);
}

// When something of these topics next becomes takeable: the first unlocked job due later, the first lock to end, or
// an expired lock's job due later. Each is the first row of an index range, not an aggregate over the queue.
const nextSqls = (n: number) => {
  const where = `WHERE j.tenant_id = ?1 AND j.kind = '${EXTERNAL_JOB}' AND j.state = 'EXECUTABLE' AND ${topicsIn(n, 3)}`;
  return [
    `SELECT j.due_at AS at FROM ${UNLOCKED} ${where} AND j.lock_owner IS NULL AND j.due_at > ?2 ORDER BY j.due_at LIMIT 1`,
    `SELECT j.lock_expires_at + 1 AS at FROM ${HELD} ${where} AND j.lock_owner IS NOT NULL AND j.lock_expires_at >= ?2
      ORDER BY j.lock_expires_at LIMIT 1`,
    `SELECT j.due_at AS at FROM ${HELD} ${where} AND j.lock_owner IS NOT NULL AND j.lock_expires_at < ?2 AND j.due_at > ?2
      ORDER BY j.due_at LIMIT 1`,
  ];
};

/** The time (kernel clock) at which a job of the topics next becomes takeable, or null when none will. */
export function nextTakeableAt(db: Database, tenantId: string, topics: string[], now: number): number | null {
  let at: number | null = null;
  for (const q of nextSqls(topics.length)) {
    const v = db.query<{ at: number }, (string | number)[]>(q).get(tenantId, now, ...topics)?.at;
    if (v != null && (at === null || v < at)) at = v;
  }
  return at;
}
