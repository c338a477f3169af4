import type { IncomingUpload } from "../attachments/receive";
import { NotFoundError } from "../errors";
import { assertKnowledgeRole, type KbCtx, nowIso, processBase } from "./access";
import { wipeBase } from "./bases";
import { documentsPage, queueIndexing, removeDocument, storeDocument } from "./documents";
import { knowledgeIndex } from "../../ai/knowledge/index-store";

type KeyInput = { definitionKey: string };

/** GET /a/definitions/{key}/knowledge/documents: the process's own documents (an empty page before the first). */
export function listProcessDocuments({
  ctx,
  input,
}: {
  ctx: KbCtx;
  input: KeyInput & { page?: number; size?: number };
}) {
  assertKnowledgeRole(ctx);
  const h = processBase(ctx, input.definitionKey, false);
  return h
    ? documentsPage(ctx, h, input.page, input.size)
    : { content: [], number: 0, size: 20, totalElements: 0, totalPages: 0 };
}

/** POST /a/definitions/{key}/knowledge/documents: 202, indexed in the background like a base's documents. */
export async function uploadProcessDocument({
  ctx,
  input,
}: {
  ctx: KbCtx;
  input: KeyInput & { upload: IncomingUpload };
}) {
  assertKnowledgeRole(ctx);
  return storeDocument(ctx, processBase(ctx, input.definitionKey, true)!, input.upload);
}

/** DELETE /a/definitions/{key}/knowledge/documents/{docId}: the document and its vectors. */
export function deleteProcessDocument({ ctx, input }: { ctx: KbCtx; input: KeyInput & { docId: string } }): void {
  assertKnowledgeRole(ctx);
  const h = processBase(ctx, input.definitionKey, false);
  if (!h) throw new NotFoundError(`Document ${input.docId} not found`);
  removeDocument(h, input.docId);
}

/** GET /a/definitions/{key}/knowledge/count: indexed chunks of the process. */
export function countProcessChunks({ ctx, input }: { ctx: KbCtx; input: KeyInput }) {
  assertKnowledgeRole(ctx);
  const h = processBase(ctx, input.definitionKey, false);
  return { definitionKey: input.definitionKey, count: h ? knowledgeIndex(h.db).countChunks(h.base.id) : 0 };
}

/** DELETE /a/definitions/{key}/knowledge: every document, chunk and vector of the process, in one transaction. */
export function wipeProcessKnowledge({ ctx, input }: { ctx: KbCtx; input: KeyInput }): void {
  assertKnowledgeRole(ctx);
  const h = processBase(ctx, input.definitionKey, false);
  if (h) wipeBase(h, false);
}

/** POST /a/definitions/{key}/knowledge/reindex: clears the chunks and queues every attached file again. */
export async function reindexProcessKnowledge({ ctx, input }: { ctx: KbCtx; input: KeyInput }) {
  assertKnowledgeRole(ctx);
  const h = processBase(ctx, input.definitionKey, false);
  if (!h) return { definitionKey: input.definitionKey, queued: 0 };
  const ids = h.db
    .query<{ id: string }, [string]>("SELECT id FROM kb_documents WHERE base_id = ?")
    .all(h.base.id)
    .map((r) => r.id);
  for (const id of ids) await queueIndexing(ctx, h, id);
  h.db
    .transaction(() => {
      knowledgeIndex(h.db).removeBase(h.base.id);
      h.db
        .query(
          "UPDATE kb_documents SET status = 'PENDING', error = NULL, chunks_done = 0, chunks_total = 0, embedded = 0, updated_at = ? WHERE base_id = ?",
        )
        .run(nowIso(ctx), h.base.id);
    })
    .immediate();
  return { definitionKey: input.definitionKey, queued: ids.length };
}
