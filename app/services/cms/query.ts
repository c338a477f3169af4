import type { Database } from "bun:sqlite";
import type { TenantDb } from "../../../tenants/tenant-db-cache";
import { BadRequestError, type FieldError } from "../errors";
import { assertCanRead, type Confidentiality } from "./clearance";
import { INDEXED_TYPES, type FieldDef } from "./fields";
import { getCollection, toRecord, type RecordOut } from "./store";

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
const SQL_OP: Record<Exclude<FilterOp, "in" | "contains" | "ne">, string> = { eq: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" };

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

/** One filter condition over the index table: `cond` applies to its rows (`v`), `negated` for ne. */
interface Cond {
  field: string;
  cond: string;
  params: (string | number)[];
  negated: boolean;
  range?: boolean;
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
    const ops: [string, unknown][] = spec !== null && typeof spec === "object" && !Array.isArray(spec) ? Object.entries(spec) : [["eq", spec]];
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
        conds.push({ field: name, cond: `v IN (${vals.map(() => "?").join(",")})`, params: vals, negated: false });
        continue;
      }
      const v = operand(f, raw, at, errors);
      if (v === null) continue;
      if (op === "contains") {
        conds.push({ field: name, cond: "v LIKE ? ESCAPE '\\'", params: [`%${String(v).replace(/[\\%_]/g, (m) => `\\${m}`)}%`], negated: false });
      } else if (op === "ne") conds.push({ field: name, cond: "v = ?", params: [v], negated: true });
      else {
        // Bounds on one field form one range condition, so the index serves it as one range and its probe is true.
        const cond = `v ${SQL_OP[op as keyof typeof SQL_OP]} ?`;
        const range = op === "eq" ? undefined : conds.find((c) => c.field === name && c.range);
        if (range) {
          range.cond += ` AND ${cond}`;
          range.params.push(v);
        } else conds.push({ field: name, cond, params: [v], negated: false, range: op !== "eq" });
      }
    }
  }
  if (errors.length) throw new BadRequestError("Invalid filter", errors);
  return conds;
}

const PROBE = 5000;

/**
 * SQL for the conditions. The most selective positive condition (measured by counting at most 5,000 index
 * entries of each) drives the query as an IN list; the others are checked per candidate record through the
 * per-record index. Left to itself SQLite may combine several IN lists into a cross product.
 */
function filterSql(sqlite: Database, conds: Cond[], collectionId: string) {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const positive = conds.filter((c) => !c.negated);
  let driver: Cond | null = null;
  let best = Infinity;
  for (const c of positive.length > 1 ? positive : []) {
    const n = sqlite
      .query<{ n: number }, (string | number)[]>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM cms_record_values WHERE collection_id = ? AND field = ? AND ${c.cond} LIMIT ${PROBE})`,
      )
      .get(collectionId, c.field, ...c.params)!.n;
    // On a tie (both probes capped) an equality is the better bet than a range.
    if (n < best || (n === best && !c.range && driver?.range)) [best, driver] = [n, c];
  }
  driver ??= positive[0] ?? null;
  for (const c of conds) {
    if (c === driver) {
      where.push(`r.seq IN (SELECT record_seq FROM cms_record_values WHERE collection_id = ? AND field = ? AND ${c.cond})`);
      params.push(collectionId, c.field, ...c.params);
    } else {
      where.push(`${c.negated ? "NOT " : ""}EXISTS (SELECT 1 FROM cms_record_values AS e INDEXED BY cms_record_values_record_field_idx WHERE e.record_seq = r.seq AND e.field = ? AND ${c.cond.replaceAll("v ", "e.v ")})`);
      params.push(c.field, ...c.params);
    }
  }
  return { where, params };
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
    if (!fields.has(p)) throw new BadRequestError(`Unknown field '${p}' in projection`, [{ field: `fields.${p}`, message: "is not a field of this collection" }]);
  }
  const { where, params } = filterSql(sqlite, parseFilter(fields, q.filter ?? {}), c.id);
  const cond = ["r.collection_id = ?", ...where].join(" AND ");
  const total = where.length
    ? sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM cms_records r WHERE ${cond}`).get(c.id, ...params)!.n
    : c.recordCount;
  let order = "r.seq";
  let join = "";
  const joinParams: string[] = [];
  const dir = q.sort?.direction === "desc" ? "DESC" : "ASC";
  if (q.sort && q.sort.field !== "createdAt") {
    const f = fields.get(q.sort.field);
    if (!f || !INDEXED_TYPES.has(f.type) || f.type === "multiselect") {
      throw new BadRequestError(`Cannot sort by '${q.sort.field}'`, [{ field: "sort", message: "must be createdAt or a scalar, indexed field of the collection" }]);
    }
    // Pinned to the per-record index: left to itself the planner may scan the whole field range for every row.
    join = "LEFT JOIN cms_record_values AS s INDEXED BY cms_record_values_record_field_idx ON s.record_seq = r.seq AND s.collection_id = ? AND s.field = ?";
    joinParams.push(c.id, f.name);
    // Records without a value come last in both directions.
    order = `s.v IS NULL, s.v ${dir}, r.seq ${dir}`;
  } else order = `r.seq ${dir}`;
  const rows = limit === 0 ? [] : sqlite
    .query<{ seq: number; id: string; values: string; created_at: string; updated_at: string }, (string | number)[]>(
      `SELECT r.seq, r.id, r."values", r.created_at, r.updated_at FROM cms_records r ${join} WHERE ${cond} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...joinParams, c.id, ...params, limit, offset);
  const records = rows.map(toRecord);
  if (q.projection) {
    const keep = new Set(q.projection);
    for (const r of records) r.values = Object.fromEntries(Object.entries(r.values).filter(([k]) => keep.has(k)));
  }
  return { records, total };
}
