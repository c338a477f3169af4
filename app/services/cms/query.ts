import type { TenantDb } from "../../../tenants/tenant-db-cache";
import { BadRequestError, type FieldError } from "../errors";
import { assertCanRead, type Confidentiality } from "./clearance";
import { INDEXED_TYPES, type FieldDef } from "./fields";
import { getCollection, toRecord, type RecordOut } from "./store";
import { chooseDriver, countedPage, countMatches, pageSeqs, type Cond, type PlanInput } from "./query-plan";
import { knownTotal, rememberTotal } from "./count-cache";

export const FILTER_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "in"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
/** A bare value means equality; an object maps operators to operands (`in` takes an array). */
export type FilterValue = unknown | Partial<Record<FilterOp, unknown>>;

export interface RecordQuery {
  tenantDb: TenantDb;
  collectionId: string;
  /** Level the caller may read; callers derive it (clearanceOf for users and keys, an agent's cmsClearance...). */
  clearance: Confidentiality;
  filter?: Record<string, FilterValue>;
  sort?: { field: string; direction?: "asc" | "desc" };
  limit?: number;
  offset?: number;
  /** Field names to return in `values`; absent = all. */
  projection?: string[];
}

export interface RecordQueryResult {
  records: RecordOut[];
  total: number;
}

export const MAX_QUERY_LIMIT = 1000;
const SQL_OP: Record<Exclude<FilterOp, "in" | "contains" | "ne">, string> = {
  eq: "=",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
};

/** Turns an operand (typed, or a string from a query string) into the form stored in the index table. */
function operand(f: FieldDef, raw: unknown, at: string, errors: FieldError[]): string | number | null {
  switch (f.type) {
    case "number":
    case "integer": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      if (Number.isFinite(n)) return n;
      break;
    }
    case "boolean":
      if (raw === true || raw === "true") return 1;
      if (raw === false || raw === "false") return 0;
      break;
    case "datetime":
      if (typeof raw === "string" && !Number.isNaN(Date.parse(raw))) return new Date(raw).toISOString();
      break;
    default:
      if (typeof raw === "string") return raw;
      if (typeof raw === "number") return String(raw);
  }
  errors.push({ field: at, message: `not a valid ${f.type} operand` });
  return null;
}

/** Parses the filter into conditions on the index side table, one per field and operator. */
function parseFilter(fields: Map<string, FieldDef>, filter: Record<string, FilterValue>): Cond[] {
  const conds: Cond[] = [];
  const errors: FieldError[] = [];
  for (const [name, spec] of Object.entries(filter)) {
    const f = fields.get(name);
    if (!f) {
      errors.push({ field: `filter.${name}`, message: "is not a field of this collection" });
      continue;
    }
    if (!INDEXED_TYPES.has(f.type)) {
      errors.push({ field: `filter.${name}`, message: `${f.type} fields are not indexed and cannot be filtered` });
      continue;
    }
    const multi = f.type === "multiselect";
    const ops: [string, unknown][] =
      spec !== null && typeof spec === "object" && !Array.isArray(spec) ? Object.entries(spec) : [["eq", spec]];
    for (const [op, raw] of ops) {
      const at = `filter.${name}.${op}`;
      if (!FILTER_OPS.includes(op as FilterOp)) {
        errors.push({ field: at, message: `unknown operator; accepted: ${FILTER_OPS.join(", ")}` });
        continue;
      }
      if (op === "in") {
        const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : null;
        if (!list || list.length === 0 || list.length > 100) {
          errors.push({ field: at, message: "takes a list of 1 to 100 values" });
          continue;
        }
        const vals = list.map((x) => operand(f, x, at, errors)) as (string | number)[];
        const marks = vals.map(() => "?").join(",");
        conds.push({
          field: name,
          sql: (col) => `${col} IN (${marks})`,
          params: vals,
          negated: false,
          multi: multi && vals.length > 1,
          eq: vals.length === 1,
        });
        continue;
      }
      const v = operand(f, raw, at, errors);
      if (v === null) continue;
      if (op === "contains") {
        const pattern = `%${String(v).replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
        conds.push({
          field: name,
          sql: (col) => `${col} LIKE ? ESCAPE '\\'`,
          params: [pattern],
          negated: false,
          multi,
        });
      } else if (op === "ne") conds.push({ field: name, sql: (col) => `${col} = ?`, params: [v], negated: true });
      else if (op === "eq")
        conds.push({ field: name, sql: (col) => `${col} = ?`, params: [v], negated: false, eq: true });
      else {
        // Bounds on one field form one range condition, so the index serves it as one range and its probe is true.
        const sqlOp = SQL_OP[op as keyof typeof SQL_OP];
        const range = conds.find((c) => c.field === name && c.range);
        if (range) {
          const before = range.sql;
          range.sql = (col) => `${before(col)} AND ${col} ${sqlOp} ?`;
          range.params.push(v);
        } else
          conds.push({
            field: name,
            sql: (col) => `${col} ${sqlOp} ?`,
            params: [v],
            negated: false,
            range: true,
            multi,
          });
      }
    }
  }
  if (errors.length) throw new BadRequestError("Invalid filter", errors);
  return conds;
}

/**
 * Reads a page of records with filters, one sort key, and a projection, within a clearance. Shared by the REST
 * list, data sources, and later AI agents and MCP (each passing its own clearance). Filters and sorts run on the
 * index side table, so they stay fast on large collections.
 */
export function queryRecords(q: RecordQuery): RecordQueryResult {
  const sqlite = q.tenantDb.sqlite;
  const c = getCollection(sqlite, q.collectionId);
  assertCanRead(c.confidentiality, q.clearance);
  const fields = new Map(c.fields.map((f) => [f.name, f]));
  const limit = Math.min(MAX_QUERY_LIMIT, Math.max(0, Math.floor(q.limit ?? 20)));
  const offset = Math.max(0, Math.floor(q.offset ?? 0));
  for (const p of q.projection ?? []) {
    if (!fields.has(p))
      throw new BadRequestError(`Unknown field '${p}' in projection`, [
        { field: `fields.${p}`, message: "is not a field of this collection" },
      ]);
  }
  const conds = parseFilter(fields, q.filter ?? {});
  let sortField: string | null = null;
  if (q.sort && q.sort.field !== "createdAt") {
    const f = fields.get(q.sort.field);
    if (!f || !INDEXED_TYPES.has(f.type) || f.type === "multiselect") {
      throw new BadRequestError(`Cannot sort by '${q.sort.field}'`, [
        { field: "sort", message: "must be createdAt or a scalar, indexed field of the collection" },
      ]);
    }
    sortField = f.name;
  }
  const plan: PlanInput = {
    sqlite,
    collectionId: c.id,
    recordCount: c.recordCount,
    conds,
    sortField,
    desc: q.sort?.direction === "desc",
    offset,
    limit,
  };
  const driver = chooseDriver(sqlite, c.id, conds);
  // Totals of filtered queries are remembered until the next write (count-cache.ts): paging costs the count once.
  const key = JSON.stringify([c.id, conds.map((x) => [x.field, x.sql("v"), x.negated, x.params])]);
  let total = conds.length ? knownTotal(sqlite, key) : c.recordCount;
  let seqs: number[] | undefined;
  if (total === undefined) {
    const counted = limit > 0 ? countedPage(plan, driver) : null;
    if (counted) ({ seqs, total } = counted);
    else total = countMatches(plan, driver);
    rememberTotal(sqlite, key, total);
  }
  seqs ??= limit === 0 ? [] : pageSeqs(plan, driver);
  const records = fetchRecords(sqlite, seqs);
  if (q.projection) {
    const keep = new Set(q.projection);
    for (const r of records) r.values = Object.fromEntries(Object.entries(r.values).filter(([k]) => keep.has(k)));
  }
  return { records, total };
}

/** The page's records by seq (primary key lookups), in the order of `seqs`. */
function fetchRecords(sqlite: TenantDb["sqlite"], seqs: number[]): RecordOut[] {
  if (!seqs.length) return [];
  const rows = sqlite
    .query<{ seq: number; id: string; values: string; created_at: string; updated_at: string }, [string]>(
      `SELECT seq, id, "values", created_at, updated_at FROM cms_records WHERE seq IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(seqs));
  const bySeq = new Map(rows.map((r) => [r.seq, r]));
  return seqs.map((s) => toRecord(bySeq.get(s)!));
}
