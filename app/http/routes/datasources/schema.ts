import { z } from "@hono/zod-openapi";

const KEY = /^[A-Za-z0-9_.:-]{1,200}$/;

export const KeyParam = z.object({ key: z.string().openapi({ param: { name: "key", in: "path" } }) });
// Kind and configuration are checked by the service, so the 400 lists the accepted kinds and names config fields.
const Kind = z.string().openapi({ enum: ["STATIC", "HTTP", "CMS"] });
const Config = z.any().openapi({
  description:
    "STATIC {rows}; HTTP {url, method?, headers?, body?, rowsPath?, timeoutMs?, maxBytes?}; CMS {collection, filter?, limit?}. See docs/human-work.md",
});

export const CreateBody = z
  .object({
    key: z.string().regex(KEY, "must be 1-200 letters, digits or _ . : -"),
    name: z.string().min(1).max(200),
    kind: Kind,
    config: Config,
  })
  .openapi("CreateDataSourceRequest");
export const UpdateBody = z
  .object({ name: z.string().min(1).max(200), kind: Kind, config: Config })
  .openapi("UpdateDataSourceRequest");
export const ExecuteBody = z
  .object({ parameters: z.record(z.string(), z.unknown()).optional() })
  .openapi("ExecuteDataSourceRequest");

export const DataSourceSchema = z
  .object({
    id: z.string(),
    key: z.string(),
    name: z.string(),
    kind: z.string(),
    config: z.any(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("DataSource");
export const RowsSchema = z.object({ rows: z.array(z.record(z.string(), z.unknown())) }).openapi("DataSourceRows");
