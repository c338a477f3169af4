import type { Database } from "bun:sqlite";

/**
 * Totals of filtered record queries, per open tenant database handle, valid until anything is written to the file.
 * A total costs one index probe per candidate record, so paging through one filter would count it again on every
 * page. The stamp is this connection's `total_changes()` (every row written through it, committed or not) with
 * `data_version` (which moves when another connection commits), so no write path has to remember to invalidate.
 * Coarse on purpose: any write to the tenant file clears the handle's totals.
 */
interface Entry {
  stamp: string;
  totals: Map<string, number>;
}

/** Totals kept per handle; benchmarks set 0 to measure uncached totals. */
export const MAX_TOTALS = { value: 128 };
const byHandle = new WeakMap<Database, Entry>();

function stampOf(sqlite: Database): string {
  const r = sqlite
    .query<{ t: number; d: number }, []>(
      "SELECT total_changes() AS t, (SELECT data_version FROM pragma_data_version) AS d",
    )
    .get()!;
  return `${r.t}:${r.d}`;
}

/** The total remembered for `key` if nothing was written since; undefined inside a transaction (rows seen there may
 * still be rolled back, and total_changes would not move back). */
export function knownTotal(sqlite: Database, key: string): number | undefined {
  if (sqlite.inTransaction || MAX_TOTALS.value === 0) return undefined;
  const entry = byHandle.get(sqlite);
  if (!entry || entry.stamp !== stampOf(sqlite)) return undefined;
  const hit = entry.totals.get(key);
  if (hit !== undefined) {
    entry.totals.delete(key);
    entry.totals.set(key, hit);
  }
  return hit;
}

/** Remembers a total counted just now (outside a transaction) until the next write. */
export function rememberTotal(sqlite: Database, key: string, total: number): void {
  if (sqlite.inTransaction || MAX_TOTALS.value === 0) return;
  const stamp = stampOf(sqlite);
  let entry = byHandle.get(sqlite);
  if (!entry || entry.stamp !== stamp) byHandle.set(sqlite, (entry = { stamp, totals: new Map() }));
  entry.totals.set(key, total);
  if (entry.totals.size > MAX_TOTALS.value) entry.totals.delete(entry.totals.keys().next().value!);
}
