import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { requireAuth, requireModeler } from "../../middleware/roles";
import {
  createDocumentType,
  deleteDocumentType,
  listDocumentTypes,
  updateDocumentType,
} from "../../../services/document-types/document-types";
import { CreateDocumentTypeBody, CreateQuery, DocumentTypeSchema, ListQuery, UpdateDocumentTypeBody } from "./schema";

const tags = ["document types"];
const list = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/document-types",
  summary: "Document types (Manager or Modeler); ?isGlobal=true&processKey= is open to every member",
  request: { query: ListQuery },
  responses: { 200: { description: "Types", ...json(z.array(DocumentTypeSchema)) }, ...errorResponses },
});
const create = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireModeler,
  method: "post",
  path: "/a/document-types",
  summary: "Create a document type (Modeler; ?isGlobal=true only SUPER_ADMIN)",
  request: { query: CreateQuery, body: { ...json(CreateDocumentTypeBody), required: true } },
  responses: { 201: { description: "Created", ...json(DocumentTypeSchema) }, ...errorResponses },
});
const update = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireModeler,
  method: "put",
  path: "/a/document-types/{id}",
  summary: "Change name, description or status (a global type only SUPER_ADMIN)",
  request: { params: IdParam, body: { ...json(UpdateDocumentTypeBody), required: true } },
  responses: { 200: { description: "Updated", ...json(DocumentTypeSchema) }, ...errorResponses },
});
const remove = createRoute({
  tags,
  security: tenantSecurity,
  middleware: requireModeler,
  method: "delete",
  path: "/a/document-types/{id}",
  summary: "Delete a document type (a global type only SUPER_ADMIN)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/document-types */
export function documentTypesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listDocumentTypes({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(create, (c) =>
    c.json(
      createDocumentType({
        ctx: c.get("ctx"),
        input: { isGlobal: c.req.valid("query").isGlobal === "true", ...c.req.valid("json") },
      }),
      201,
    ),
  );
  r.openapi(update, (c) =>
    c.json(
      updateDocumentType({ ctx: c.get("ctx"), input: { id: c.req.valid("param").id, ...c.req.valid("json") } }),
      200,
    ),
  );
  r.openapi(remove, (c) => {
    deleteDocumentType({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
