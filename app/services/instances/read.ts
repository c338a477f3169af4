import type { RequestCtx } from "../context";
import { BadRequestError } from "../errors";
import { pageOf, pageParams, type Page } from "../../../db/pagination";
import { visibilityOf } from "./visibility";

type Row = { id: string; startTime: string; endTime: string | null };
type Source<T extends Row> = (page: number, size: number) => Page<T>;

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
 * One page over processes and cases together, newest first by `order`. When one side is empty (the usual tenant runs
 * only one kind) the other side pages by itself; only a real mix reads the first offset+size rows of both.
 */
function mergedPage<T extends Row>(
  a: Source<T>,
  b: Source<T>,
  q: { page?: number; size?: number },
  order: (r: T) => string,
): Page<T> {
  const { page, size, offset } = pageParams(q.page, q.size, 20, 100);
  const aFirst = a(0, 1);
  const bFirst = b(0, 1);
  if (bFirst.totalElements === 0) return a(page, size);
  if (aFirst.totalElements === 0) return b(page, size);
  const x = firstRows(a, offset + size);
  const y = firstRows(b, offset + size);
  const all = [...x.rows, ...y.rows].sort((r, s) => order(s).localeCompare(order(r)) || s.id.localeCompare(r.id));
  return pageOf(all.slice(offset, offset + size), x.total + y.total, page, size);
}

const isCase = (ctx: RequestCtx, id: string) => ctx.caseRuntime.isCase(ctx.tenant.id, id);

type TypeQuery = { page?: number; size?: number; type?: "BPMN" | "CMMN" };

/** One source when the type is given, both merged otherwise. */
function byType(q: TypeQuery, processes: Source<Row>, cases: Source<Row>, order: (r: Row) => string) {
  if (q.type === "BPMN") return processes(q.page ?? 0, q.size ?? 20);
  if (q.type === "CMMN") return cases(q.page ?? 0, q.size ?? 20);
  return mergedPage(processes, cases, q, order);
}

/** GET /a/instances?type= : running processes, cases, or both, newest first. */
export function listInstances(ctx: RequestCtx, q: TypeQuery) {
  const [t, v] = [ctx.tenant.id, visibilityOf(ctx)];
  return byType(
    q,
    (page, size) => ctx.processRuntime.listInstances(t, v, { page, size }),
    (page, size) => ctx.caseRuntime.listCases(t, v, { page, size }),
    (r) => r.startTime,
  );
}

/** GET /a/history/instances?type= : ended processes, cases, or both, most recently ended first. */
export function listHistory(ctx: RequestCtx, q: TypeQuery) {
  const [t, v] = [ctx.tenant.id, visibilityOf(ctx)];
  return byType(
    q,
    (page, size) => ctx.processRuntime.historyInstances(t, v, { page, size }),
    (page, size) => ctx.caseRuntime.historyCases(t, v, { page, size }),
    (r) => r.endTime ?? r.startTime,
  );
}

/** GET /a/instances/{id}: a process or a case, with variables; 404 when the caller takes no part. */
export function instanceDetail(ctx: RequestCtx, id: string) {
  const v = visibilityOf(ctx);
  return isCase(ctx, id)
    ? ctx.caseRuntime.getCase(ctx.tenant.id, id, v)
    : ctx.processRuntime.getInstance(ctx.tenant.id, id, v);
}

export function historyDetail(ctx: RequestCtx, id: string) {
  const v = visibilityOf(ctx);
  return isCase(ctx, id)
    ? ctx.caseRuntime.historyCase(ctx.tenant.id, id, v)
    : ctx.processRuntime.historyInstance(ctx.tenant.id, id, v);
}

export function historyActivities(ctx: RequestCtx, id: string) {
  const v = visibilityOf(ctx);
  return isCase(ctx, id)
    ? ctx.caseRuntime.caseActivities(ctx.tenant.id, id, v)
    : ctx.processRuntime.historyActivities(ctx.tenant.id, id, v);
}

/** DELETE /a/instances/{id} (Manager): cancels a process or terminates a case. */
export async function cancelInstance(ctx: RequestCtx, id: string) {
  if (isCase(ctx, id)) {
    await ctx.caseRuntime.cancelCase(ctx.tenant.id, id, {
      userId: ctx.actor.userId,
      channel: ctx.actor.channel,
    });
    return ctx.caseRuntime.getCase(ctx.tenant.id, id);
  }
  return ctx.processRuntime.cancelInstance(ctx.tenant.id, id);
}

/** PATCH /a/instances/{id}/suspend|activate (Manager): BPMN only, a case answers 400. */
export function setInstanceSuspended(ctx: RequestCtx, id: string, suspended: boolean) {
  if (isCase(ctx, id)) throw new BadRequestError("Cases cannot be suspended or activated: only BPMN instances can");
  const rt = ctx.processRuntime;
  return suspended ? rt.suspendInstance(ctx.tenant.id, id) : rt.activateInstance(ctx.tenant.id, id);
}

/** GET /a/instances/{id}/diagram: SVG (or the BPMN on request) for a process; the CMMN XML for a case. */
export function instanceDiagram(
  ctx: RequestCtx,
  id: string,
  format: "svg" | "xml" | undefined,
): { body: string; type: string } {
  const v = visibilityOf(ctx);
  const t = ctx.tenant.id;
  if (isCase(ctx, id)) {
    const c = ctx.caseRuntime.getCase(t, id, v);
    return {
      body: ctx.processRuntime.definitionXml(t, c.definitionKey, c.definitionId),
      type: "application/xml; charset=utf-8",
    };
  }
  if (format === "xml")
    return { body: ctx.processRuntime.diagramXml(t, id, v), type: "application/xml; charset=utf-8" };
  return { body: ctx.processRuntime.diagramSvg(t, id, v), type: "image/svg+xml" };
}
