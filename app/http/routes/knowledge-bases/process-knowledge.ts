import { createRoute } from "@hono/zod-openapi";
import type { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { PageQuery } from "../../schemas";
import { incomingUpload } from "../../multipart";
import { tooLarge } from "../attachments/schema";
import {
  countProcessChunks,
  deleteProcessDocument,
  listProcessDocuments,
  reindexProcessKnowledge,
  uploadProcessDocument,
  wipeProcessKnowledge,
} from "../../../services/knowledge-bases/process-knowledge";
import {
  ChunkCountSchema,
  documentBody,
  KeyDocParams,
  KeyParam,
  KnowledgeDocumentPage,
  ReindexSchema,
  UploadAccepted,
} from "./schema";
import { kbCommon } from "./common";

const base = "/a/definitions/{key}/knowledge";
const docs = createRoute({
  ...kbCommon,
  method: "get",
  path: `${base}/documents`,
  summary: "The process's own knowledge documents",
  request: { params: KeyParam, query: PageQuery },
  responses: { 200: { description: "Page of documents", ...json(KnowledgeDocumentPage) }, ...errorResponses },
});
const upload = createRoute({
  ...kbCommon,
  method: "post",
  path: `${base}/documents`,
  summary: "Upload a PDF, TXT or MD file (field `file`) and index it",
  request: { params: KeyParam, body: documentBody },
  responses: { 202: { description: "Queued", ...json(UploadAccepted) }, ...errorResponses, ...tooLarge },
});
const removeDoc = createRoute({
  ...kbCommon,
  method: "delete",
  path: `${base}/documents/{docId}`,
  summary: "Remove a document and its vectors",
  request: { params: KeyDocParams },
  responses: { 204: { description: "Removed" }, ...errorResponses },
});
const count = createRoute({
  ...kbCommon,
  method: "get",
  path: `${base}/count`,
  summary: "Number of indexed chunks of the process",
  request: { params: KeyParam },
  responses: { 200: { description: "Count", ...json(ChunkCountSchema) }, ...errorResponses },
});
const wipe = createRoute({
  ...kbCommon,
  method: "delete",
  path: base,
  summary: "Wipe every document and vector of the process",
  request: { params: KeyParam },
  responses: { 204: { description: "Wiped" }, ...errorResponses },
});
const reindex = createRoute({
  ...kbCommon,
  method: "post",
  path: `${base}/reindex`,
  summary: "Clear the chunks and index every attached file again",
  request: { params: KeyParam },
  responses: { 202: { description: "Queued", ...json(ReindexSchema) }, ...errorResponses },
});

const keyOf = (p: { key: string }) => ({ definitionKey: p.key });

export function registerProcessKnowledge(r: ReturnType<typeof createRouter>) {
  r.openapi(docs, (c) =>
    c.json(
      listProcessDocuments({ ctx: c.get("ctx"), input: { ...keyOf(c.req.valid("param")), ...c.req.valid("query") } }),
      200,
    ),
  );
  r.openapi(upload, async (c) =>
    c.json(
      await uploadProcessDocument({
        ctx: c.get("ctx"),
        input: { ...keyOf(c.req.valid("param")), upload: incomingUpload(c) },
      }),
      202,
    ),
  );
  r.openapi(removeDoc, (c) => {
    const p = c.req.valid("param");
    deleteProcessDocument({ ctx: c.get("ctx"), input: { ...keyOf(p), docId: p.docId } });
    return c.body(null, 204);
  });
  r.openapi(count, (c) => c.json(countProcessChunks({ ctx: c.get("ctx"), input: keyOf(c.req.valid("param")) }), 200));
  r.openapi(wipe, (c) => {
    wipeProcessKnowledge({ ctx: c.get("ctx"), input: keyOf(c.req.valid("param")) });
    return c.body(null, 204);
  });
  r.openapi(reindex, async (c) =>
    c.json(await reindexProcessKnowledge({ ctx: c.get("ctx"), input: keyOf(c.req.valid("param")) }), 202),
  );
}
