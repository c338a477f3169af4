import type { TenantCtx } from "../context";

export type CmsQueryCtx = TenantCtx;

export interface CmsDataSourceQuery {
  /** Collection name or id, from the data source configuration. */
  collection: string;
  /** Field equality filter: the configured filter overlaid with the execute parameters. */
  filter: Record<string, unknown>;
  limit: number;
}

/** Runs a CMS query for a data source as the calling user (so confidentiality rules apply); returns record values. */
export type CmsQuery = (
  ctx: CmsQueryCtx,
  query: CmsDataSourceQuery,
) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];
