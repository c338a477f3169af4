/**
 * Drizzle builds the SQL text on every call (tens of µs); a prepared query with `sql.placeholder` builds it once.
 * Hot paths keep their prepared queries here, one set per database handle.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

/** Returns the query prepared by `build` for this database, preparing it on first use. */
export function prepared<T>(db: object, name: string, build: () => T): T {
  let byName = cache.get(db);
  if (!byName) {
    byName = new Map();
    cache.set(db, byName);
  }
  let q = byName.get(name) as T | undefined;
  if (q === undefined) {
    q = build();
    byName.set(name, q);
  }
  return q;
}
