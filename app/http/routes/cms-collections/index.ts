import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { requireAuth, requireManager } from "../../middleware/roles";
import {
  createCollection,
  deleteCollection,
  getCollectionDetail,
  listCollections,
  updateCollection,
} from "../../../services/cms-collections/collections";
import { CollectionSchema, CreateCollectionBody, UpdateCollectionBody } from "./schema";

const tags = ["cms"];
const list = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/cms/collections",
  summary: "Collections the caller may read (those above the caller's confidentiality level are left out)",
  responses: { 200: { description: "Collections", ...json(z.array(CollectionSchema)) }, ...errorResponses },
});
const create = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireManager,
  method: "post",
  path: "/a/cms/collections",
  summary: "Create a collection with its fields and confidentiality (Manager; only an Admin classifies TOP_SECRET)",
  request: { body: { ...json(CreateCollectionBody), required: true } },
  responses: { 201: { description: "Created", ...json(CollectionSchema) }, ...errorResponses },
});
const detail = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/cms/collections/{id}",
  summary: "Collection detail (403 above the caller's level)",
  request: { params: IdParam },
  responses: { 200: { description: "Collection", ...json(CollectionSchema) }, ...errorResponses },
});
const update = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireManager,
  method: "put",
  path: "/a/cms/collections/{id}",
  summary: "Change name, fields or confidentiality (Manager)",
  request: { params: IdParam, body: { ...json(UpdateCollectionBody), required: true } },
  responses: { 200: { description: "Updated", ...json(CollectionSchema) }, ...errorResponses },
});
const remove = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireManager,
  method: "delete",
  path: "/a/cms/collections/{id}",
  summary: "Delete a collection and all its records, permanently (Manager)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/cms/collections */
export function cmsCollectionsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listCollections({ ctx: c.get("ctx") }), 200));
  r.openapi(create, (c) => c.json(createCollection({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(detail, (c) => c.json(getCollectionDetail({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(update, (c) =>
    c.json(
      updateCollection({ ctx: c.get("ctx"), input: { id: c.req.valid("param").id, ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteCollection({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
