import type { Database } from "bun:sqlite";

/**
 * How a record query reads the index side table (docs/cms.md, "Query plans"). Every step reads one of the two
 * covering indexes of `cms_record_values`, never the record rows: those are fetched by seq for the page only.
 */

type Param = string | number;

/** One filter condition on the values of one field; `negated` for ne (no value of the field matches). */
export interface Cond {
  field: string;
  /** The condition on an index value column, e.g. `${col} >= ?`. */
  sql: (col: string) => string;
  params: Param[];
  negated: boolean;
  /** A gt/gte/lt/lte range (bounds on one field are merged into one). */
  range?: boolean;
  /** Equality on one value: its index entries are in record order already. */
  eq?: boolean;
  /** Can match several index rows of one record (a multiselect under in, contains or a range). */
  multi?: boolean;
}

export interface PlanInput {
  sqlite: Database;
  collectionId: string;
  recordCount: number;
  conds: Cond[];
  /** null: insertion order (createdAt). */
  sortField: string | null;
  desc: boolean;
  offset: number;
  limit: number;
}

/** Thresholds of the plan choice; exported so tests can force every plan on small collections. */
export const PLAN = {
  /** Index entries counted per condition to find the most selective one. */
  probe: 5000,
  /** Up to this many candidates, probe each one's sort key and sort them (no ordered walk). */
  small: 1000,
  /** Up to this many candidates, an ordered walk tests membership in an in-memory set of them; above, one probe per step. */
  inList: 100_000,
  /** An ordered walk gives up after this many steps per candidate (then the candidates are sorted instead). */
  walkPerCandidate: 16,
  /** At least this many steps for a walk that probes membership. */
  probeWalk: 20_000,
};

// Indexes are pinned: left to itself the planner may drive a walk by the membership set and lose the walk order.
const LOOKUP = (a: string) => `cms_record_values AS ${a} INDEXED BY cms_record_values_lookup_idx`;
const PER_RECORD = (a: string) => `cms_record_values AS ${a} INDEXED BY cms_record_values_record_field_idx`;
const RECORDS = (a: string) => `cms_records AS ${a} INDEXED BY cms_records_collection_idx`;

/** The index range of a condition: the seqs of the records it matches (repeated for a `multi` condition). */
function rangeOf(c: Cond, collectionId: string, distinct = false): [string, Param[]] {
  return [
    `SELECT ${distinct && c.multi ? "DISTINCT " : ""}x.record_seq FROM ${LOOKUP("x")} WHERE x.collection_id = ? AND x.field = ? AND ${c.sql("x.v")}`,
    [collectionId, c.field, ...c.params],
  ];
}

/** `[NOT] EXISTS ...`: the condition for the record `seq` (an SQL expression), one probe of the per-record index. */
function exists(c: Cond, seq: string): [string, Param[]] {
  const sql = `${c.negated ? "NOT " : ""}EXISTS (SELECT 1 FROM ${PER_RECORD("e")} WHERE e.record_seq = ${seq} AND e.field = ? AND ${c.sql("e.v")})`;
  return [sql, [c.field, ...c.params]];
}

/** ` AND <exists>` for each condition. */
function checks(conds: Cond[], seq: string): [string, Param[]] {
  let sql = "";
  const params: Param[] = [];
  for (const c of conds) {
    const [e, p] = exists(c, seq);
    sql += ` AND ${e}`;
    params.push(...p);
  }
  return [sql, params];
}

const seqsOf = (sqlite: Database, sql: string, params: Param[]): number[] =>
  sqlite
    .query<{ s: number }, Param[]>(sql)
    .all(...params)
    .map((r) => r.s);

/** Records the condition matches, counted from its index range; at most `cap` when given. */
export function countCond(sqlite: Database, collectionId: string, c: Cond, cap?: number): number {
  const [range, params] = rangeOf(c, collectionId, true);
  const limited = cap === undefined ? range : `${range} LIMIT ?`;
  return sqlite
    .query<{ n: number }, Param[]>(`SELECT count(*) AS n FROM (${limited})`)
    .get(...params, ...(cap === undefined ? [] : [cap]))!.n;
}

/**
 * The positive condition with the fewest index entries drives the query. Each is counted up to PLAN.probe entries,
 * and no further than the fewest found so far; when all reach the cap they are counted again with a cap ten times
 * higher (a 1% filter next to a 50% one must not tie). Past the last cap an equality is the better bet than a range.
 * Null when every condition is negated.
 */
export function chooseDriver(sqlite: Database, collectionId: string, conds: Cond[]): Cond | null {
  const positive = conds.filter((c) => !c.negated);
  if (positive.length <= 1) return positive[0] ?? null;
  for (let cap = PLAN.probe; cap <= PLAN.probe * 1000; cap *= 10) {
    let bound = cap;
    let winner: Cond | null = null;
    for (const c of positive) {
      const n = countCond(sqlite, collectionId, c, bound);
      if (n < bound) [bound, winner] = [n, c];
    }
    if (winner) return winner;
  }
  return positive.find((c) => !c.range) ?? positive[0];
}

/** Number of records matching every condition, without reading a record row. */
export function countMatches(inp: PlanInput, driver: Cond | null): number {
  const { sqlite, collectionId, conds } = inp;
  if (!conds.length) return inp.recordCount;
  const others = conds.filter((c) => c !== driver);
  if (driver && !others.length) return countCond(sqlite, collectionId, driver);
  // A single ne: a record holds a given value at most once (multiselect options are deduplicated).
  if (!driver && others.length === 1)
    return inp.recordCount - countCond(sqlite, collectionId, { ...others[0], negated: false });
  if (!driver) {
    const [w, p] = checks(others, "r.seq");
    return sqlite
      .query<{ n: number }, Param[]>(`SELECT count(*) AS n FROM ${RECORDS("r")} WHERE r.collection_id = ?${w}`)
      .get(collectionId, ...p)!.n;
  }
  const [range, rp] = rangeOf(driver, collectionId, true);
  const [w, p] = checks(others, "d.record_seq");
  return sqlite.query<{ n: number }, Param[]>(`SELECT count(*) AS n FROM (${range}) AS d WHERE 1${w}`).get(...rp, ...p)!
    .n;
}

/**
 * The page and the total from one pass over the candidates, when the count has to probe every candidate anyway and
 * the sort field carries a positive condition: its probe then reads the sort key too (a join instead of a check),
 * so sorting the matches costs no probe of its own and no ordered walk is needed. Null when not applicable, or
 * when the page lies past the last match (the window count needs one row).
 */
export function countedPage(inp: PlanInput, driver: Cond | null): { seqs: number[]; total: number } | null {
  const { sqlite, collectionId, sortField, offset, limit } = inp;
  if (!driver || sortField === null || driver.field === sortField) return null;
  const others = inp.conds.filter((c) => c !== driver);
  const onSort = others.filter((c) => c.field === sortField && !c.negated);
  if (!onSort.length) return null;
  const rest = others.filter((c) => !onSort.includes(c));
  const dir = inp.desc ? "DESC" : "ASC";
  const [range, rp] = rangeOf(driver, collectionId, true);
  const [w, p] = checks(rest, "d.record_seq");
  const rows = sqlite
    .query<{ s: number; n: number }, Param[]>(
      `SELECT s, n FROM (
         SELECT d.record_seq AS s, k.v AS v, count(*) OVER () AS n FROM (${range}) AS d
         JOIN ${PER_RECORD("k")} ON k.record_seq = d.record_seq AND k.field = ?${onSort.map((c) => ` AND ${c.sql("k.v")}`).join("")}
         WHERE 1${w}
       ) ORDER BY v ${dir}, s ${dir} LIMIT ? OFFSET ?`,
    )
    .all(...rp, sortField, ...onSort.flatMap((c) => c.params), ...p, limit, offset);
  return rows.length ? { seqs: rows.map((r) => r.s), total: rows[0].n } : null;
}

/** Seqs of the requested page, in page order. */
export function pageSeqs(inp: PlanInput, driver: Cond | null): number[] {
  const { sqlite, collectionId, sortField, offset, limit } = inp;
  const others = inp.conds.filter((c) => c !== driver);
  let count: number | undefined;
  const candidates = () => (count ??= countCond(sqlite, collectionId, driver!, PLAN.inList + 1));
  if (sortField === null) {
    if (!driver) {
      const [w, p] = checks(others, "r.seq");
      const dir = inp.desc ? "DESC" : "ASC";
      return seqsOf(
        sqlite,
        `SELECT r.seq AS s FROM ${RECORDS("r")} WHERE r.collection_id = ?${w} ORDER BY r.seq ${dir} LIMIT ? OFFSET ?`,
        [collectionId, ...p, limit, offset],
      );
    }
    // An equality's index range is in record order: the page is read in order and the scan stops after it.
    if (driver.eq || candidates() <= PLAN.small) return sortCandidates(inp, driver, others);
    return orderedWalk(inp, driver, others, candidates()) ?? sortCandidates(inp, driver, others);
  }
  if (!driver) return walkWithTail(inp, others);
  // Positive conditions on the sort field restrict the walk of its index directly.
  if (driver.field === sortField) return orderedWalk(inp, null, inp.conds, 0)!;
  if (candidates() <= PLAN.small) return sortCandidates(inp, driver, others);
  return orderedWalk(inp, driver, others, candidates()) ?? sortCandidates(inp, driver, others);
}

/**
 * Filter, then sort: the driver's records, checked against the other conditions, ordered by their sort key (one
 * probe each; records without a value last) or by seq. Costs one probe per candidate plus a sort of them.
 */
function sortCandidates(inp: PlanInput, driver: Cond, others: Cond[]): number[] {
  const { sqlite, collectionId, sortField, offset, limit } = inp;
  const dir = inp.desc ? "DESC" : "ASC";
  const [range, rp] = rangeOf(driver, collectionId, true);
  const [w, p] = checks(others, "d.record_seq");
  if (sortField === null) {
    return seqsOf(
      sqlite,
      `SELECT d.record_seq AS s FROM (${range}) AS d WHERE 1${w} ORDER BY d.record_seq ${dir} LIMIT ? OFFSET ?`,
      [...rp, ...p, limit, offset],
    );
  }
  return seqsOf(
    sqlite,
    `SELECT d.record_seq AS s FROM (${range}) AS d LEFT JOIN ${PER_RECORD("k")} ON k.record_seq = d.record_seq AND k.field = ?
     WHERE 1${w} ORDER BY k.v IS NULL, k.v ${dir}, d.record_seq ${dir} LIMIT ? OFFSET ?`,
    [...rp, sortField, ...p, limit, offset],
  );
}

/**
 * Walks the sort order (the sort field's index range, or the records in seq order) and keeps the records that pass
 * the conditions, stopping after offset + limit of them. With a driver, membership is tested against an in-memory
 * set of its records (or one probe each when they are many), and the walk is capped in proportion to them: a
 * filter anti-correlated with the sort would otherwise walk the whole index. Null when the cap stopped it first.
 */
function orderedWalk(inp: PlanInput, driver: Cond | null, others: Cond[], candidates: number): number[] | null {
  const { sqlite, collectionId, sortField, offset, limit } = inp;
  const dir = inp.desc ? "DESC" : "ASC";
  const need = offset + limit;
  const onSort = sortField === null ? [] : others.filter((c) => c.field === sortField && !c.negated);
  const rest = others.filter((c) => !onSort.includes(c));
  if (driver === null) {
    // The walk is the driver's own range: bounded by it, no cap needed (and no record without a value matches).
    const bounds = onSort.map((c) => ` AND ${c.sql("o.v")}`).join("");
    const [w, p] = checks(rest, "o.record_seq");
    return seqsOf(
      sqlite,
      `SELECT o.record_seq AS s FROM ${LOOKUP("o")} WHERE o.collection_id = ? AND o.field = ?${bounds}${w}
       ORDER BY o.v ${dir}, o.record_seq ${dir} LIMIT ? OFFSET ?`,
      [collectionId, sortField!, ...onSort.flatMap((c) => c.params), ...p, limit, offset],
    );
  }
  const useSet = candidates <= PLAN.inList;
  const cap = useSet
    ? candidates * PLAN.walkPerCandidate + need
    : Math.max(PLAN.probeWalk, Math.ceil((4 * need * inp.recordCount) / Math.max(1, candidates)));
  let source: string;
  let sp: Param[];
  if (sortField === null) {
    source = `SELECT r.seq AS s FROM ${RECORDS("r")} WHERE r.collection_id = ? ORDER BY r.seq ${dir} LIMIT ?`;
    sp = [collectionId, cap];
  } else {
    const bounds = onSort.map((c) => ` AND ${c.sql("o.v")}`).join("");
    source = `SELECT o.record_seq AS s FROM ${LOOKUP("o")} WHERE o.collection_id = ? AND o.field = ?${bounds} ORDER BY o.v ${dir}, o.record_seq ${dir} LIMIT ?`;
    sp = [collectionId, sortField, ...onSort.flatMap((c) => c.params), cap];
  }
  let [member, mp] = exists(driver, "w.s");
  if (useSet) {
    const [range, rp] = rangeOf(driver, collectionId);
    // `+` keeps the planner from driving the query by the set: the walk order is the point.
    [member, mp] = [`+w.s IN (${range})`, rp];
  }
  const [w, p] = checks(rest, "w.s");
  // The LIMIT in the subquery keeps it a co-routine, so rows come out in walk order and the scan stops early.
  const seqs = seqsOf(sqlite, `SELECT w.s AS s FROM (${source}) AS w WHERE ${member}${w} LIMIT ?`, [
    ...sp,
    ...mp,
    ...p,
    need,
  ]);
  if (seqs.length >= need) return seqs.slice(offset);
  // Walking every record in seq order (cap above the count) is complete: there is no record without a sort key.
  if (sortField === null && cap >= inp.recordCount) return seqs.slice(offset);
  return null;
}

/**
 * No positive condition and a sort field: walk the field's index in order checking the negated conditions, then,
 * when the page reaches past the records holding a value, continue with those without one in seq order.
 */
function walkWithTail(inp: PlanInput, others: Cond[]): number[] {
  const { sqlite, collectionId, sortField, offset, limit } = inp;
  const dir = inp.desc ? "DESC" : "ASC";
  const need = offset + limit;
  const [w, p] = checks(others, "o.record_seq");
  const head = seqsOf(
    sqlite,
    `SELECT o.record_seq AS s FROM ${LOOKUP("o")} WHERE o.collection_id = ? AND o.field = ?${w} ORDER BY o.v ${dir}, o.record_seq ${dir} LIMIT ?`,
    [collectionId, sortField!, ...p, need],
  );
  if (head.length >= need) return head.slice(offset);
  const [tw, tp] = checks(others, "r.seq");
  const skip = Math.max(0, offset - head.length);
  const tail = seqsOf(
    sqlite,
    `SELECT r.seq AS s FROM ${RECORDS("r")} WHERE r.collection_id = ?
       AND NOT EXISTS (SELECT 1 FROM ${PER_RECORD("e")} WHERE e.record_seq = r.seq AND e.field = ?)${tw}
     ORDER BY r.seq ${dir} LIMIT ? OFFSET ?`,
    [collectionId, sortField!, ...tp, need - Math.max(offset, head.length), skip],
  );
  return [...head.slice(offset), ...tail];
}
