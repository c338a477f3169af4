import type { TenantCtx } from "../context";
import { BadRequestError } from "../errors";
import { pageOf, pageParams, type Page } from "../../../db/pagination";
import { clearanceOf } from "../cms/clearance";
import { MAX_QUERY_LIMIT, queryRecords, type FilterValue } from "../cms/query";
import type { RecordOut } from "../cms/store";

export type ListRecordsCtx = TenantCtx<"db">;

/**
 * Reads the REST query string of GET .../records: `filter.<field>=v` (equality), `filter.<field>.<op>=v`
 * (op: ne, gt, gte, lt, lte, contains, in with comma-separated values), `sort=<field>,asc|desc`, `fields=a,b`.
 */
export function recordQueryFromParams(params: Record<string, string>) {
  const filter: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(params)) {
    if (!k.startsWith("filter.")) continue;
    const [field, op = "eq", ...rest] = k.slice("filter.".length).split(".");
    if (!field || rest.length)
      throw new BadRequestError(`Malformed filter parameter '${k}'`, [
        { field: k, message: "use filter.<field> or filter.<field>.<op>" },
      ]);
    (filter[field] ??= {})[op] = v;
  }
  let sort: { field: string; direction: "asc" | "desc" } | undefined;
  if (params.sort) {
    const [field, direction = "asc"] = params.sort.split(",");
    if (!field || (direction !== "asc" && direction !== "desc")) {
      throw new BadRequestError("sort must be <field>,asc or <field>,desc", [
        { field: "sort", message: "use <field>,asc|desc" },
      ]);
    }
    sort = { field, direction };
  }
  const projection = params.fields ? params.fields.split(",").filter(Boolean) : undefined;
  return { filter: filter as Record<string, FilterValue>, sort, projection };
}

/** GET /a/cms/collections/{id}/records: paginated (size default 20, at most 1000) within the caller's clearance. */
export function listRecords({
  ctx,
  input: { collectionId, params },
}: {
  ctx: ListRecordsCtx;
  input: { collectionId: string; params: Record<string, string> };
}): Page<RecordOut> {
  const num = (s: string | undefined) =>
    s === undefined || s === "" || Number.isNaN(Number(s)) ? undefined : Number(s);
  const { page, size, offset } = pageParams(num(params.page), num(params.size), 20, MAX_QUERY_LIMIT);
  const q = recordQueryFromParams(params);
  const { records, total } = queryRecords({
    tenantDb: ctx.db,
    collectionId,
    clearance: clearanceOf(ctx.actor),
    ...q,
    limit: size,
    offset,
  });
  return pageOf(records, total, page, size);
}
