import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { IdParam, PageQuery } from "../../schemas";
import { kbCommon } from "./common";
import { incomingUpload } from "../../multipart";
import { tooLarge } from "../attachments/schema";
import {
  createKnowledgeBase,
  deleteKnowledgeBase,
  getKnowledgeBase,
  listKnowledgeBases,
} from "../../../services/knowledge-bases/bases";
import { deleteDocument, listDocuments, uploadDocument } from "../../../services/knowledge-bases/documents";
import { searchKnowledgeBase } from "../../../services/knowledge-bases/search";
import {
  CreateKnowledgeBaseBody,
  DocParams,
  documentBody,
  KnowledgeBaseDetailSchema,
  KnowledgeBaseSchema,
  KnowledgeDocumentPage,
  SearchBody,
  SearchResultSchema,
  UploadAccepted,
} from "./schema";
import { registerKnowledgeLinks } from "./links";
import { registerProcessKnowledge } from "./process-knowledge";

const list = createRoute({
  ...kbCommon,
  method: "get",
  path: "/a/knowledge-bases",
  summary: "The tenant's knowledge bases and the global ones",
  responses: { 200: { description: "Bases", ...json(z.array(KnowledgeBaseSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...kbCommon,
  method: "post",
  path: "/a/knowledge-bases",
  summary: "Create a knowledge base (isGlobal true only SUPER_ADMIN)",
  request: { body: { ...json(CreateKnowledgeBaseBody), required: true } },
  responses: { 201: { description: "Created", ...json(KnowledgeBaseSchema) }, ...errorResponses },
});
const detail = createRoute({
  ...kbCommon,
  method: "get",
  path: "/a/knowledge-bases/{id}",
  summary: "A knowledge base with its document count",
  request: { params: IdParam },
  responses: { 200: { description: "Base", ...json(KnowledgeBaseDetailSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...kbCommon,
  method: "delete",
  path: "/a/knowledge-bases/{id}",
  summary:
    "Delete a base with its documents and vectors (409 while a process is linked; a global one only SUPER_ADMIN)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const documents = createRoute({
  ...kbCommon,
  method: "get",
  path: "/a/knowledge-bases/{id}/documents",
  summary: "Documents with their indexing status and progress (size default 20)",
  request: { params: IdParam, query: PageQuery },
  responses: { 200: { description: "Page of documents", ...json(KnowledgeDocumentPage) }, ...errorResponses },
});
const upload = createRoute({
  ...kbCommon,
  method: "post",
  path: "/a/knowledge-bases/{id}/documents",
  summary: "Upload a PDF, TXT or MD file (field `file`); indexed in the background",
  request: { params: IdParam, body: documentBody },
  responses: { 202: { description: "Queued", ...json(UploadAccepted) }, ...errorResponses, ...tooLarge },
});
const removeDoc = createRoute({
  ...kbCommon,
  method: "delete",
  path: "/a/knowledge-bases/{id}/documents/{docId}",
  summary: "Delete a document and its vectors",
  request: { params: DocParams },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const search = createRoute({
  ...kbCommon,
  method: "post",
  path: "/a/knowledge-bases/{id}/search",
  summary: "Hybrid retrieval (FTS5 and vectors by reciprocal rank fusion); full-text only without an embedding model",
  request: { params: IdParam, body: { ...json(SearchBody), required: true } },
  responses: { 200: { description: "Hits, best first", ...json(SearchResultSchema) }, ...errorResponses },
});

/** /a/knowledge-bases and /a/definitions/{key}/knowledge */
export function knowledgeBasesRouter() {
  const r = createRouter();
  // The process routes first: /a/knowledge-bases/process/... must not be read as a base id.
  registerKnowledgeLinks(r);
  r.openapi(list, (c) => c.json(listKnowledgeBases({ ctx: c.get("ctx") }), 200));
  r.openapi(create, (c) => c.json(createKnowledgeBase({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(detail, (c) => c.json(getKnowledgeBase({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(remove, (c) => {
    deleteKnowledgeBase({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(documents, (c) =>
    c.json(listDocuments({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("query") } }), 200),
  );
  r.openapi(upload, async (c) =>
    c.json(
      await uploadDocument({ ctx: c.get("ctx"), input: { id: c.req.valid("param").id, upload: incomingUpload(c) } }),
      202,
    ),
  );
  r.openapi(removeDoc, (c) => {
    deleteDocument({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(search, async (c) =>
    c.json(
      await searchKnowledgeBase({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("json") } }),
      200,
    ),
  );
  registerProcessKnowledge(r);
  return r;
}
