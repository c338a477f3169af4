// Shared by the instance list and the history list; it lives with instances, its first reader.
import { pageOf, pageParams, type Page } from "../../../db/pagination";

type Row = { id: string; startTime: string; endTime: string | null };
type Source<T extends Row> = (page: number, size: number) => Page<T>;

/**
 * Code-unit order, SQLite's BINARY collation. Ties of `order` go by id ascending, as both runtimes order their pages
 * (`ORDER BY …, i.id`): each side's first rows are then the first in the merged order too, and a row neither repeats
 * on nor goes missing from the next page.
 */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The first `n` rows of a paginated source (pages of 100, the runtimes' cap). */
function firstRows<T extends Row>(source: Source<T>, n: number): { rows: T[]; total: number } {
  const rows: T[] = [];
  let total = 0;
  for (let page = 0; rows.length < n; page++) {
    const p = source(page, 100);
    total = p.totalElements;
    rows.push(...p.content);
    if (p.content.length < 100) break;
  }
  return { rows, total };
}

/**
 * One page over processes and cases together, newest first by `order` (ties by id). When one side is empty (the usual
 * tenant runs only one kind) the other side pages by itself; only a real mix reads the first offset+size rows of both.
 */
function mergedPage<T extends Row>(
  a: Source<T>,
  b: Source<T>,
  q: { page?: number; size?: number },
  order: (r: T) => string,
): Page<T> {
  const { page, size, offset } = pageParams(q.page, q.size, 20, 100);
  // `b` (the cases) first: a tenant without any reads its process page once. A user's page costs one look-up per
  // instance they take part in (61 ms at 10,000 among 1,000,000, bench:bpmn-scale), so reading it twice doubled it.
  if (b(0, 1).totalElements === 0) return a(page, size);
  if (a(0, 1).totalElements === 0) return b(page, size);
  const x = firstRows(a, offset + size);
  const y = firstRows(b, offset + size);
  const all = [...x.rows, ...y.rows].sort((r, s) => byText(order(s), order(r)) || byText(r.id, s.id));
  return pageOf(all.slice(offset, offset + size), x.total + y.total, page, size);
}

export type TypeQuery = { page?: number; size?: number; type?: "BPMN" | "CMMN" };

/** One source when the type is given, both merged otherwise. */
export function byType<T extends Row>(
  q: TypeQuery,
  processes: Source<T>,
  cases: Source<T>,
  order: (r: T) => string,
): Page<T> {
  if (q.type === "BPMN") return processes(q.page ?? 0, q.size ?? 20);
  if (q.type === "CMMN") return cases(q.page ?? 0, q.size ?? 20);
  return mergedPage(processes, cases, q, order);
}
