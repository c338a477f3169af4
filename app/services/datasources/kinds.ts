import { z } from "zod";
import { BadRequestError } from "../errors";

export const DATASOURCE_KINDS = ["STATIC", "HTTP", "CMS"] as const;
export type DataSourceKind = (typeof DATASOURCE_KINDS)[number];

export const HTTP_DEFAULT_TIMEOUT_MS = 10_000;
export const HTTP_MAX_TIMEOUT_MS = 30_000;
export const HTTP_DEFAULT_MAX_BYTES = 1_048_576;
export const HTTP_MAX_BYTES = 5 * 1_048_576;
export const STATIC_MAX_ROWS = 10_000;
export const CMS_MAX_LIMIT = 1000;

const Row = z.record(z.string(), z.unknown());

export const StaticConfig = z.object({ rows: z.array(Row).max(STATIC_MAX_ROWS) });

export const HttpConfig = z.object({
  url: z
    .string()
    .min(1)
    .refine((u) => /^https?:\/\//i.test(u), "must start with http:// or https://"),
  method: z.enum(["GET", "POST"]).default("GET"),
  headers: z.record(z.string(), z.string()).default({}),
  /** JSON body template for POST; absent = the execute parameters as they are. */
  body: z.unknown().optional(),
  /** Dot path to the rows in the response (`data.items`); absent = the response itself. */
  rowsPath: z.string().optional(),
  timeoutMs: z.number().int().min(100).max(HTTP_MAX_TIMEOUT_MS).default(HTTP_DEFAULT_TIMEOUT_MS),
  maxBytes: z.number().int().min(1).max(HTTP_MAX_BYTES).default(HTTP_DEFAULT_MAX_BYTES),
});

export const CmsConfig = z.object({
  collection: z.string().min(1),
  filter: z.record(z.string(), z.unknown()).default({}),
  limit: z.number().int().min(1).max(CMS_MAX_LIMIT).default(100),
});

export type StaticConfigT = z.infer<typeof StaticConfig>;
export type HttpConfigT = z.infer<typeof HttpConfig>;
export type CmsConfigT = z.infer<typeof CmsConfig>;

const SCHEMAS = { STATIC: StaticConfig, HTTP: HttpConfig, CMS: CmsConfig } as const;

/** Validates a configuration for its kind; 400 with field errors naming `config.<path>`. Returns it with defaults. */
export function parseConfig(kind: string, config: unknown): Record<string, unknown> {
  if (!(DATASOURCE_KINDS as readonly string[]).includes(kind)) {
    throw new BadRequestError(`Unknown data source kind '${kind}'; accepted kinds: ${DATASOURCE_KINDS.join(", ")}`, [
      { field: "kind", message: `must be one of ${DATASOURCE_KINDS.join(", ")}` },
    ]);
  }
  const parsed = SCHEMAS[kind as DataSourceKind].safeParse(config ?? {});
  if (!parsed.success) {
    const fieldErrors = parsed.error.issues.map((i) => ({
      field: ["config", ...i.path.map(String)].join("."),
      message: i.message,
    }));
    throw new BadRequestError(
      `Invalid ${kind} configuration: ${fieldErrors.map((f) => `${f.field} ${f.message}`).join("; ")}`,
      fieldErrors,
    );
  }
  return parsed.data as Record<string, unknown>;
}
