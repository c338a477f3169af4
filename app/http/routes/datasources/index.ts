import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import {
  createDataSource,
  deleteDataSource,
  getDataSource,
  listDataSources,
  updateDataSource,
} from "../../../services/datasources/manage";
import { executeDataSource } from "../../../services/datasources/execute";
import { CreateBody, DataSourceSchema, ExecuteBody, KeyParam, RowsSchema, UpdateBody } from "./schema";

const read = { tags: ["data sources"], security: tenantSecurity, middleware: requireAuth };
// The spec gives every data-source route to Auth; a secret placeholder in a configuration still needs an Admin (service).
const write = { tags: ["data sources"], security: tenantSecurity, middleware: requireAuth };
const base = "/a/forms/datasources";
const one = { 200: { description: "Data source", ...json(DataSourceSchema) }, ...errorResponses };

const list = createRoute({
  ...read,
  method: "get",
  path: base,
  summary: "Data sources of the tenant",
  responses: { 200: { description: "Data sources", ...json(z.array(DataSourceSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...write,
  method: "post",
  path: base,
  summary: "Create a data source (any member; a secret placeholder needs Admin)",
  request: { body: { ...json(CreateBody), required: true } },
  responses: { 201: { description: "Created", ...json(DataSourceSchema) }, ...errorResponses },
});
const getOne = createRoute({
  ...read,
  method: "get",
  path: `${base}/{key}`,
  summary: "One data source",
  request: { params: KeyParam },
  responses: one,
});
const update = createRoute({
  ...write,
  method: "put",
  path: `${base}/{key}`,
  summary: "Replace name, kind and configuration",
  request: { params: KeyParam, body: { ...json(UpdateBody), required: true } },
  responses: one,
});
const remove = createRoute({
  ...write,
  method: "delete",
  path: `${base}/{key}`,
  summary: "Delete a data source",
  request: { params: KeyParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const execute = createRoute({
  ...read,
  method: "post",
  path: `${base}/{key}/execute`,
  summary: "Run the source with parameters",
  request: { params: KeyParam, body: { ...json(ExecuteBody), required: false } },
  responses: { 200: { description: "Rows", ...json(RowsSchema) }, ...errorResponses },
});

/** /a/forms/datasources: the only routes under /a/forms (there is no /a/forms/{key}). */
export function dataSourcesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listDataSources({ ctx: c.get("ctx") }), 200));
  r.openapi(create, (c) => c.json(createDataSource({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(getOne, (c) => c.json(getDataSource({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(update, (c) =>
    c.json(
      updateDataSource({ ctx: c.get("ctx"), input: { key: c.req.valid("param").key, ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteDataSource({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(execute, async (c) =>
    c.json(
      await executeDataSource({
        ctx: c.get("ctx"),
        input: { key: c.req.valid("param").key, parameters: c.req.valid("json")?.parameters },
      }),
      200,
    ),
  );
  return r;
}
