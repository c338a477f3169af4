import type { CmsQuery } from "../datasources/cms-registry";
import { NotFoundError } from "../errors";
import { clearanceOf } from "./clearance";
import { findCollection } from "./store";
import { queryRecords } from "./query";

/** CMS data sources: the collection by id or name, queried with the caller's own clearance (rules 1-4). */
export const cmsDataSourceQuery: CmsQuery = (ctx, q) => {
  const sqlite = ctx.db.sqlite;
  const byName = sqlite.query("SELECT id FROM cms_collections WHERE name = ?").get(q.collection) as {
    id: string;
  } | null;
  const id = findCollection(sqlite, q.collection)?.id ?? byName?.id;
  if (!id) throw new NotFoundError(`Collection '${q.collection}' not found`);
  const { records } = queryRecords({
    tenantDb: ctx.db,
    collectionId: id,
    clearance: clearanceOf(ctx.actor),
    filter: q.filter,
    limit: q.limit,
  });
  return records.map((r) => ({ id: r.id, ...r.values }));
};
