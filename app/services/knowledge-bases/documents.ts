import { formatOf } from "../../ai/knowledge/extract";
import { knowledgeIndex } from "../../ai/knowledge/index-store";
import { pageOf, pageParams, type Page } from "../../../db/pagination";
import { type IncomingUpload, receiveMultipart } from "../attachments/receive";
import { NotFoundError } from "../errors";
import { type Person, withPeople } from "../people/people";
import {
  assertGlobalWriter,
  assertKnowledgeRole,
  type BaseHandle,
  dropUnreferencedFiles,
  findBase,
  KB_INDEX_JOB,
  type KbCtx,
  nowIso,
} from "./access";
import { admitted } from "../admission";

export type KnowledgeDocumentOut = {
  id: string;
  knowledgeBaseId: string;
  fileName: string;
  format: "PDF" | "TXT" | "MD";
  size: number;
  status: "PENDING" | "INDEXING" | "INDEXED" | "FAILED";
  error: string | null;
  /** Progress of the indexing: chunks embedded so far of the total. */
  chunksDone: number;
  chunksTotal: number;
  /** Whether the chunks carry vectors (false: full-text only). */
  embedded: boolean;
  uploadedBy: string | null;
  createdAt: string;
  updatedAt: string;
};

interface DocRow {
  id: string;
  base_id: string;
  file_name: string;
  format: KnowledgeDocumentOut["format"];
  size: number;
  sha256: string;
  status: KnowledgeDocumentOut["status"];
  error: string | null;
  chunks_done: number;
  chunks_total: number;
  embedded: number;
  uploaded_by: string | null;
  created_at: string;
  updated_at: string;
}

const out = (r: DocRow): KnowledgeDocumentOut => ({
  id: r.id,
  knowledgeBaseId: r.base_id,
  fileName: r.file_name,
  format: r.format,
  size: r.size,
  status: r.status,
  error: r.error,
  chunksDone: r.chunks_done,
  chunksTotal: r.chunks_total,
  embedded: !!r.embedded,
  uploadedBy: r.uploaded_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A base's documents, newest first, paginated (size default 20), each naming who uploaded it (`uploadedByUser`). */
export function documentsPage(
  ctx: KbCtx,
  h: BaseHandle,
  page?: number,
  size?: number,
): Page<KnowledgeDocumentOut & { uploadedByUser: Person | null }> {
  const p = pageParams(page, size, 20, 100);
  const total =
    h.db.query<{ n: number }, [string]>("SELECT COUNT(*) n FROM kb_documents WHERE base_id = ?").get(h.base.id)?.n ?? 0;
  const rows = h.db
    .query<DocRow, [string, number, number]>(
      "SELECT * FROM kb_documents WHERE base_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
    )
    .all(h.base.id, p.size, p.offset);
  return pageOf(withPeople(ctx.platformDb, ctx.tenant.id, rows.map(out), ["uploadedBy"]), total, p.page, p.size);
}

/** GET /a/knowledge-bases/{id}/documents */
export function listDocuments({ ctx, input }: { ctx: KbCtx; input: { id: string; page?: number; size?: number } }) {
  assertKnowledgeRole(ctx);
  return documentsPage(ctx, findBase(ctx, input.id), input.page, input.size);
}

/**
 * Queues (or re-queues) the indexing job of a document; the job's tenant is the one that asked for it. `alongside`
 * writes the document right after the job's row, in the same turn (serviceJobs.enqueue).
 */
export async function queueIndexing(
  ctx: KbCtx,
  h: BaseHandle,
  documentId: string,
  alongside?: () => void,
): Promise<void> {
  await ctx.serviceJobs.enqueue(
    ctx.tenant.id,
    KB_INDEX_JOB,
    { documentId, global: h.isGlobal },
    { retries: 3, backoffMs: 5000, alongside },
  );
}

/**
 * Stores an uploaded PDF, TXT or MD file and queues its indexing; answers at once with PENDING, with or without a
 * model (indexing is then full-text only). Unsupported type: 400 naming the accepted ones; too large: 413; in both
 * cases nothing is stored.
 */
export async function storeDocument(ctx: KbCtx, h: BaseHandle, upload: IncomingUpload) {
  const { file } = await receiveMultipart(ctx, upload);
  try {
    const format = formatOf(file.fileName, file.contentType);
    const id = Bun.randomUUIDv7();
    const now = nowIso(ctx);
    // The file is in place and synced (off the event loop) before any row names it.
    const placed = await h.files.place(file);
    // The job row goes first (engine database): a crash before the document row leaves a job that finds nothing.
    // The document follows in the same turn, so no executor claims the job before the document is there.
    await queueIndexing(ctx, h, id, () =>
      h.db
        .transaction(() => {
          h.db
            .query(
              `INSERT INTO kb_documents (id, base_id, file_name, format, size, sha256, status, uploaded_by, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?)`,
            )
            .run(id, h.base.id, file.fileName, format, file.size, file.sha256, ctx.actor.userId, now, now);
        })
        .immediate(),
    ).finally(placed.release);
    return { id, status: "PENDING" as const };
  } catch (e) {
    await file.discard();
    throw e;
  }
}

export const uploadDocument = admitted(uploadDocumentNow);
/** POST /a/knowledge-bases/{id}/documents: 202 {id, status: "PENDING"}; documents of a global base only by SUPER_ADMIN. */
async function uploadDocumentNow({ ctx, input }: { ctx: KbCtx; input: { id: string; upload: IncomingUpload } }) {
  assertKnowledgeRole(ctx);
  const h = findBase(ctx, input.id);
  if (h.isGlobal) assertGlobalWriter(ctx);
  return storeDocument(ctx, h, input.upload);
}

/** Deletes a document with its chunks in both indexes (one transaction); a running indexing job then finds nothing. */
export function removeDocument(h: BaseHandle, documentId: string): void {
  const doc = h.db
    .query<{ sha256: string }, [string, string]>("SELECT sha256 FROM kb_documents WHERE id = ? AND base_id = ?")
    .get(documentId, h.base.id);
  if (!doc) throw new NotFoundError(`Document ${documentId} not found`);
  h.db
    .transaction(() => {
      knowledgeIndex(h.db).removeDocument(documentId);
      h.db.query("DELETE FROM kb_documents WHERE id = ?").run(documentId);
    })
    .immediate();
  dropUnreferencedFiles(h, [doc.sha256]);
}

/** DELETE /a/knowledge-bases/{id}/documents/{docId} */
export function deleteDocument({ ctx, input }: { ctx: KbCtx; input: { id: string; docId: string } }): void {
  assertKnowledgeRole(ctx);
  const h = findBase(ctx, input.id);
  if (h.isGlobal) assertGlobalWriter(ctx);
  removeDocument(h, input.docId);
}
