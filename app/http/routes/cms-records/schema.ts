import { z } from "@hono/zod-openapi";
import { IdParam } from "../../schemas";

export const RecordSchema = z
  .object({ id: z.string(), values: z.record(z.string(), z.unknown()), createdAt: z.string(), updatedAt: z.string() })
  .openapi("CmsRecord");
export const RecordBody = z.object({ values: z.record(z.string(), z.unknown()) }).openapi("CmsRecordRequest");
// Items are validated by the service so that errors name the record index (records[17].price).
export const BulkBody = z
  .object({
    records: z.array(z.unknown()).openapi({ type: "array", items: { type: "object" }, description: "at most 20,000" }),
    keyField: z
      .string()
      .optional()
      .openapi({ description: "at most 100 characters; an existing key value updates its record" }),
  })
  .openapi("CmsBulkRequest");
export const BulkResult = z
  .object({ inserted: z.number().int(), updated: z.number().int(), total: z.number().int() })
  .openapi("CmsBulkResult");
export const RecordParams = IdParam.extend({
  recordId: z.string().openapi({ param: { name: "recordId", in: "path" } }),
});
export const RecordListQuery = z
  .object({
    page: z.string().optional().openapi({ example: "0" }),
    size: z.string().optional().openapi({ example: "20", description: "default 20, at most 1000" }),
    sort: z.string().optional().openapi({ description: "<field>,asc|desc (createdAt or an indexed field)" }),
    fields: z.string().optional().openapi({ description: "comma-separated projection of values" }),
  })
  .openapi({
    description:
      "plus filter.<field>=value (equality) and filter.<field>.<op>=value, op ∈ ne, gt, gte, lt, lte, contains, in",
  });
