import type { TenantCtx } from "../context";
import { UnprocessableError } from "../errors";
import { resolveTenantVariable } from "../tenant-variables/resolve";
import { runHttp } from "./http-source";
import { CmsConfig, HttpConfig, StaticConfig } from "./kinds";
import { findDataSource } from "./manage";
import { runStatic } from "./static-source";

export type DatasourcesExecuteCtx = TenantCtx;

/** Tenant variable listing the internal hosts HTTP data sources may call (comma-separated names or addresses, or "*"). */
export const ALLOW_PRIVATE_HOSTS_VARIABLE = "DATASOURCE_ALLOWED_PRIVATE_HOSTS";

/** POST /a/forms/datasources/{key}/execute: `{rows}` from the source, given the form's parameters. */
export async function executeDataSource({
  ctx,
  input: { key, parameters = {} },
}: {
  ctx: DatasourcesExecuteCtx;
  input: { key: string; parameters?: Record<string, unknown> };
}) {
  const ds = findDataSource(ctx, key);
  const config = JSON.parse(ds.config) as unknown;
  switch (ds.kind) {
    case "STATIC":
      return { rows: runStatic(StaticConfig.parse(config), parameters) };
    case "HTTP": {
      const allowed = (resolveTenantVariable(ctx.db, ALLOW_PRIVATE_HOSTS_VARIABLE) ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      const lookup = (kind: "var" | "param", name: string) => {
        if (kind === "param") return parameters[name];
        const value = resolveTenantVariable(ctx.db, name);
        if (value === null)
          throw new UnprocessableError(`Data source '${key}' uses tenant variable '${name}', which is not defined`);
        return value;
      };
      return { rows: await runHttp(key, HttpConfig.parse(config), parameters, lookup, { allowedPrivate: allowed }) };
    }
    case "CMS": {
      const c = CmsConfig.parse(config);
      const rows = await ctx.cmsQuery(ctx, {
        collection: c.collection,
        filter: { ...c.filter, ...parameters },
        limit: c.limit,
      });
      return { rows };
    }
    default:
      throw new UnprocessableError(`Data source '${key}' has an unknown kind '${ds.kind}'`);
  }
}
