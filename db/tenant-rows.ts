import type { Database } from "bun:sqlite";

/**
 * How the shared databases (platform, engine) name a row's tenant, table by table. The default is a `tenant_id`
 * column, found from the schema itself; the exceptions are named here. `test/features/tenant-drop-tables.test.ts`
 * fails on a table that has neither a tenant column nor an entry below, so a new table needs a rule.
 */
export const TENANT_COLUMN_OF: Readonly<Record<string, string>> = {
  /** the tenant id, or "GLOBAL" for an agent of every tenant (SUPER_ADMIN's, kept) */
  agents: "scope",
};
/** Tables whose rows belong to a tenant through a parent row deleted with it (ON DELETE CASCADE): table → parent. */
export const CASCADED_FROM: Readonly<Record<string, string>> = {
  refresh_tokens: "sessions",
  webhook_attempts: "webhook_deliveries",
};
/** Tables that hold no tenant's rows: installation-wide data, each with the reason. */
export const NOT_TENANT_DATA: Readonly<Record<string, string>> = {
  users: "platform accounts; memberships (tenant_id) tie them to tenants",
  tenants: "the tenant's record stays, DROPPED",
  password_resets: "of a user",
  sso_connections: "installation-wide sign-in",
  sso_flows: "a sign-in in progress, of no tenant",
  sso_codes: "a user's one-time code",
  dmn_templates: "SUPER_ADMIN's templates",
  process_templates: "SUPER_ADMIN's templates",
  global_document_types: "SUPER_ADMIN's document types",
  rag_config: "installation-wide retrieval settings",
  knowledge_bases: "global knowledge bases (a tenant's own live in its file)",
  kb_documents: "of the global knowledge bases",
  kb_chunks: "of the global knowledge bases",
  kb_ivf_indexes: "of the global knowledge bases",
  mcp_servers: "SUPER_ADMIN's remote MCP servers; a dropped tenant named in allowedTenants can no longer run an agent",
};

/** The column naming the tenant of `table`'s rows, or null for a table without one. */
export function tenantColumnOf(db: Database, table: string): string | null {
  if (TENANT_COLUMN_OF[table]) return TENANT_COLUMN_OF[table];
  return columnsOf(db, table).includes("tenant_id") ? "tenant_id" : null;
}

/**
 * The tables of a shared database (platform, engine) that hold rows of one tenant: those with a tenant column (see
 * above), found from the schema so that a table added later is dropped with the rest. Ordered children first (a
 * table whose foreign keys point at another listed table comes before it), so a batch never waits on a cascade.
 */
export function tenantTables(db: Database, exclude: readonly string[] = []): string[] {
  const names = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
    )
    .all()
    .map((r) => r.name)
    .filter((n) => !exclude.includes(n))
    .filter((n) => tenantColumnOf(db, n) !== null);
  const parents = new Map(names.map((n) => [n, referencedTables(db, n).filter((p) => p !== n && names.includes(p))]));
  const ordered: string[] = [];
  const visit = (n: string, seen: Set<string>) => {
    if (ordered.includes(n) || seen.has(n)) return;
    seen.add(n);
    // every table that references n goes first
    for (const [child, ps] of parents) if (ps.includes(n)) visit(child, seen);
    ordered.push(n);
  };
  for (const n of names.sort()) visit(n, new Set());
  return ordered;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const columnsOf = (db: Database, table: string) =>
  db
    .query<{ name: string }, [string]>("SELECT name FROM pragma_table_info(?)")
    .all(table)
    .map((c) => c.name);
const referencedTables = (db: Database, table: string) =>
  db
    .query<{ table: string }, [string]>('SELECT "table" FROM pragma_foreign_key_list(?)')
    .all(table)
    .map((r) => r.table);

/** The key columns a table's rows are ordered by: rowid, or the primary key of a WITHOUT ROWID table. */
function keyColumns(db: Database, table: string): string[] {
  const sql = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(table)?.sql ?? "";
  if (!/WITHOUT\s+ROWID/i.test(sql)) return ["rowid"];
  return db
    .query<{ name: string }, [string]>("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk")
    .all(table)
    .map((c) => quote(c.name));
}

interface Plan {
  width: number;
  first: string;
  after: string;
  deleteUpTo: string;
  deleteBetween: string;
}

function planOf(db: Database, table: string): Plan {
  const cols = keyColumns(db, table);
  const key = cols.length === 1 ? cols[0] : `(${cols.join(", ")})`;
  const params = cols.length === 1 ? "?" : `(${cols.map(() => "?").join(", ")})`;
  const q = quote(table);
  const tenant = quote(tenantColumnOf(db, table) ?? "tenant_id");
  const select = `SELECT ${cols.map((c, i) => `${c} AS k${i}`).join(", ")} FROM ${q} WHERE ${tenant} = ?`;
  const order = `ORDER BY ${cols.join(", ")} LIMIT ?`;
  return {
    width: cols.length,
    first: `${select} ${order}`,
    after: `${select} AND ${key} > ${params} ${order}`,
    deleteUpTo: `DELETE FROM ${q} WHERE ${tenant} = ? AND ${key} <= ${params}`,
    deleteBetween: `DELETE FROM ${q} WHERE ${tenant} = ? AND ${key} > ${params} AND ${key} <= ${params}`,
  };
}

type Key = (string | number | bigint | null)[];
const plans = new WeakMap<Database, Map<string, Plan>>();
const cursors = new WeakMap<Database, Map<string, Key>>();

/**
 * Deletes at most `limit` rows of the tenant from the first of `tables` that still has some; returns how many went
 * (0: none of the tables holds a row of the tenant any more). Each table is walked in key order from where the last
 * batch ended, so a table without an index on tenant_id is read once, not once per batch. Idempotent: after a
 * crash the walk starts again from the beginning and deletes what is still there.
 */
export function deleteTenantBatch(db: Database, tables: readonly string[], tenantId: string, limit: number): number {
  let known = plans.get(db);
  if (!known) plans.set(db, (known = new Map()));
  let walked = cursors.get(db);
  if (!walked) cursors.set(db, (walked = new Map()));
  for (const t of tables) {
    let plan = known.get(t);
    if (!plan) known.set(t, (plan = planOf(db, t)));
    const at = `${t}\u0000${tenantId}`;
    const from = walked.get(at);
    const read = (after?: Key) =>
      (after
        ? db.query<Record<string, Key[number]>, Key>(plan.after).all(tenantId, ...after, limit)
        : db.query<Record<string, Key[number]>, Key>(plan.first).all(tenantId, limit)
      ).map((r) => Object.values(r));
    let lower = from;
    let keys = read(from);
    // At the end of the walk, once more from the start: a command running meanwhile may have written behind it.
    if (!keys.length && from) {
      lower = undefined;
      keys = read();
    }
    if (!keys.length) {
      walked.delete(at);
      continue;
    }
    const last = keys[keys.length - 1];
    const n = lower
      ? db.query(plan.deleteBetween).run(tenantId, ...lower, ...last).changes
      : db.query(plan.deleteUpTo).run(tenantId, ...last).changes;
    walked.set(at, last);
    if (n > 0) return n;
  }
  return 0;
}
