import { z } from "zod";
import { CONFIDENTIALITY_LEVELS } from "../../cms/clearance";
import { FIELD_TYPES } from "../../cms/fields";
import { FILTER_OPS } from "../../cms/query";
import { createCollection, listCollections } from "../../cms-collections/collections";
import { bulkLoad, MAX_MCP_LOAD_RECORDS } from "../../cms-records/bulk";
import { listRecords } from "../../cms-records/list-records";
import { listOf, tool } from "../descriptor";

const Collection = z.object({
  id: z.string(),
  name: z.string(),
  fields: z.array(z.object({ name: z.string(), type: z.string() })),
  confidentiality: z.string(),
  recordCount: z.number().int(),
});
const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The structured query as GET .../records' query string, so the REST operation reads it (one parser). */
function asParams(q: {
  filter?: Record<string, z.infer<typeof scalar> | Record<string, z.infer<typeof scalar> | z.infer<typeof scalar>[]>>;
  sort?: { field: string; direction?: "asc" | "desc" };
  fields?: string[];
  page?: number;
  size?: number;
}): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [field, spec] of Object.entries(q.filter ?? {})) {
    if (typeof spec !== "object") params[`filter.${field}`] = String(spec);
    else for (const [op, v] of Object.entries(spec)) params[`filter.${field}.${op}`] = [v].flat().join(",");
  }
  if (q.sort) params.sort = `${q.sort.field},${q.sort.direction ?? "asc"}`;
  if (q.fields?.length) params.fields = q.fields.join(",");
  if (q.page !== undefined) params.page = String(q.page);
  if (q.size !== undefined) params.size = String(q.size);
  return params;
}

export const cmsTools = [
  tool({
    name: "svc_cms_field_types",
    title: "CMS field types and classification levels",
    description: "The field types a CMS collection accepts, the filter operators, and the confidentiality levels.",
    input: z.object({}),
    output: z.object({
      fieldTypes: z.array(z.string()),
      confidentialityLevels: z.array(z.string()),
      filterOperators: z.array(z.string()),
    }),
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: () => ({
      fieldTypes: [...FIELD_TYPES],
      confidentialityLevels: [...CONFIDENTIALITY_LEVELS],
      filterOperators: [...FILTER_OPS],
    }),
    summary: (o) => `${o.fieldTypes.length} field types; levels ${o.confidentialityLevels.join(", ")}`,
  }),
  tool({
    name: "svc_cms_collection_list",
    title: "List CMS collections",
    description: "The CMS collections at or below the caller's confidentiality level, with their fields.",
    input: z.object({}),
    output: listOf(Collection),
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: ({ ctx }) => ({ items: listCollections({ ctx }) }),
    summary: (o) => `${o.items.length} collection(s)`,
  }),
  tool({
    name: "svc_cms_collection_create",
    title: "Create a CMS collection",
    description: "Creates a collection: name, fields [{name, type, required?, unique?, options?}], confidentiality.",
    input: z.object({
      name: z.string(),
      fields: z.array(z.record(z.string(), z.unknown())),
      confidentiality: z.enum(["PUBLIC", "SECRET", "TOP_SECRET"]),
    }),
    output: Collection,
    readOnly: false,
    destructive: false,
    run: ({ ctx, input }) => createCollection({ ctx, input }),
    summary: (o) => `Created collection '${o.name}' (${o.id}) with ${o.fields.length} field(s)`,
  }),
  tool({
    name: "svc_cms_records_load",
    title: "Load CMS records",
    description: `Loads records into a collection in one transaction: all or nothing. At most ${MAX_MCP_LOAD_RECORDS} records per call. With keyField, a record whose key exists updates it.`,
    input: z.object({
      collectionId: z.string().min(1),
      records: z.array(z.record(z.string(), z.unknown())),
      keyField: z.string().optional(),
    }),
    output: z.object({ inserted: z.number().int(), updated: z.number().int(), total: z.number().int() }),
    readOnly: false,
    // With keyField a load overwrites existing records' values: not only additive (MCP's meaning of destructive).
    destructive: true,
    run: ({ ctx, input }) => bulkLoad({ ctx, input: { ...input, maxRecords: MAX_MCP_LOAD_RECORDS } }),
    summary: (o) => `${o.inserted} inserted, ${o.updated} updated (${o.total} records)`,
  }),
  tool({
    name: "svc_cms_records_query",
    title: "Query CMS records",
    description:
      "Reads records of a collection: filter {field: value} or {field: {op: value}} (ops eq, ne, gt, gte, lt, lte, contains, in), sort, fields, page (from 0), size (default 20).",
    input: z.object({
      collectionId: z.string().min(1),
      filter: z
        .record(z.string(), z.union([scalar, z.record(z.string(), z.union([scalar, z.array(scalar)]))]))
        .optional(),
      sort: z.object({ field: z.string(), direction: z.enum(["asc", "desc"]).optional() }).optional(),
      fields: z.array(z.string()).optional(),
      page: z.number().int().min(0).optional(),
      size: z.number().int().min(1).optional(),
    }),
    output: z.object({
      content: z.array(z.object({ id: z.string(), values: z.record(z.string(), z.unknown()) })),
      number: z.number().int(),
      size: z.number().int(),
      totalElements: z.number().int(),
      totalPages: z.number().int(),
    }),
    readOnly: true,
    destructive: false,
    idempotent: true,
    run: ({ ctx, input }) => listRecords({ ctx, input: { collectionId: input.collectionId, params: asParams(input) } }),
    summary: (o) => `${o.content.length} of ${o.totalElements} record(s), page ${o.number}`,
  }),
];
