import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { IdParam, pageSchema } from "../../schemas";
import { requireAuth } from "../../middleware/roles";
import {
  createRecord,
  deleteRecord,
  emptyCollection,
  getRecord,
  updateRecord,
} from "../../../services/cms-records/records";
import { bulkLoad } from "../../../services/cms-records/bulk";
import { listRecords } from "../../../services/cms-records/list-records";
import { BulkBody, BulkResult, RecordBody, RecordListQuery, RecordParams, RecordSchema } from "./schema";

// Writes are checked by the service: Manager, or an API key holding scope write (PUBLIC collections only).
const common = { tags: ["cms"], security: tenantSecurity, middleware: requireAuth };
const base = "/a/cms/collections/{id}/records";

const list = createRoute({
  ...common,
  method: "get",
  path: base,
  summary: "Records, paginated (size default 20), with filters, sort and projection",
  request: { params: IdParam, query: RecordListQuery },
  responses: {
    200: { description: "Page of records", ...json(pageSchema(RecordSchema, "CmsRecordPage")) },
    ...errorResponses,
  },
});
const create = createRoute({
  ...common,
  method: "post",
  path: base,
  summary: "Create one record (Manager or API key with write)",
  request: { params: IdParam, body: { ...json(RecordBody), required: true } },
  responses: { 201: { description: "Created", ...json(RecordSchema) }, ...errorResponses },
});
const bulk = createRoute({
  ...common,
  method: "post",
  path: `${base}/bulk`,
  summary: "Load up to 20,000 records in one transaction; keyField makes it idempotent",
  request: { params: IdParam, body: { ...json(BulkBody), required: true } },
  responses: { 200: { description: "Counts", ...json(BulkResult) }, ...errorResponses },
});
const empty = createRoute({
  ...common,
  method: "delete",
  path: base,
  summary: "Empty the collection, permanently",
  request: { params: IdParam },
  responses: { 204: { description: "Emptied" }, ...errorResponses },
});
const detail = createRoute({
  ...common,
  method: "get",
  path: `${base}/{recordId}`,
  summary: "One record",
  request: { params: RecordParams },
  responses: { 200: { description: "Record", ...json(RecordSchema) }, ...errorResponses },
});
const update = createRoute({
  ...common,
  method: "put",
  path: `${base}/{recordId}`,
  summary: "Replace a record's values",
  request: { params: RecordParams, body: { ...json(RecordBody), required: true } },
  responses: { 200: { description: "Updated", ...json(RecordSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: `${base}/{recordId}`,
  summary: "Delete a record, permanently",
  request: { params: RecordParams },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/cms/collections/{id}/records */
export function cmsRecordsRouter() {
  const r = createRouter();
  r.openapi(list, (c) =>
    c.json(
      listRecords({ ctx: c.get("ctx"), input: { collectionId: c.req.valid("param").id, params: c.req.query() } }),
      200,
    ),
  );
  r.openapi(create, (c) =>
    c.json(
      createRecord({ ctx: c.get("ctx"), input: { collectionId: c.req.valid("param").id, body: c.req.valid("json") } }),
      201,
    ),
  );
  r.openapi(bulk, (c) =>
    c.json(
      bulkLoad({ ctx: c.get("ctx"), input: { collectionId: c.req.valid("param").id, ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(empty, (c) => {
    emptyCollection({ ctx: c.get("ctx"), input: { collectionId: c.req.valid("param").id } });
    return c.body(null, 204);
  });
  r.openapi(detail, (c) =>
    c.json(
      getRecord({
        ctx: c.get("ctx"),
        input: { collectionId: c.req.valid("param").id, recordId: c.req.valid("param").recordId },
      }),
      200,
    ),
  );
  r.openapi(update, (c) => {
    const p = c.req.valid("param");
    return c.json(
      updateRecord({
        ctx: c.get("ctx"),
        input: { collectionId: p.id, recordId: p.recordId, body: c.req.valid("json") },
      }),
      200,
    );
  });
  r.openapi(remove, (c) => {
    const p = c.req.valid("param");
    deleteRecord({ ctx: c.get("ctx"), input: { collectionId: p.id, recordId: p.recordId } });
    return c.body(null, 204);
  });
  return r;
}
