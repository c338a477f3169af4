/** `tenantId` → `tenant_id`: the column name drizzle gives a camelCase schema property. */
type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S;

/**
 * A table's row (booleans as the 0/1 SQLite stores) as bun:sqlite returns it for `SELECT *` (snake_case columns), derived from the drizzle schema's
 * `$inferSelect`, so a column added to the schema shows up here and a typo in a column name does not compile.
 */
export type SqlRow<T> = { [K in keyof T & string as Snake<K>]: T[K] extends boolean ? 0 | 1 : T[K] };
