import type { Database } from "bun:sqlite";
import type { AiGateway } from "../gateway";
import type { AiCaller } from "../usage";
import { chunkSections } from "./chunker";
import { type DocFormat, extractSections } from "./extract";
import { knowledgeIndex } from "./index-store";
import type { RagSettings } from "./rag-settings";

export interface IndexDocumentDeps {
  /** The database holding the document (a tenant's file, or the platform database for a global base). */
  db: Database;
  readFile(sha256: string): Promise<Uint8Array>;
  ai: AiGateway;
  caller: AiCaller;
  settings: RagSettings;
  nowIso(): string;
}

const EMBED_BATCH = 32;

interface DocRow {
  id: string;
  base_id: string;
  format: DocFormat;
  sha256: string;
}

/**
 * Indexes one document: extract, chunk, embed (outside any transaction: the model is never awaited while a write is
 * open), then replace its chunks in both indexes and mark it INDEXED in one transaction. A document deleted meanwhile
 * stops the work cleanly and nothing is written. A file that cannot be read ends FAILED at once (retrying would not
 * help); a model failure is thrown for the job's retry, and marks the document FAILED on the last try.
 */
export async function indexDocument(deps: IndexDocumentDeps, documentId: string, retriesLeft: number): Promise<void> {
  const { db } = deps;
  const get = () => db.query<DocRow, [string]>("SELECT * FROM kb_documents WHERE id = ?").get(documentId);
  const setState = db.query(
    "UPDATE kb_documents SET status = ?, error = ?, chunks_done = ?, chunks_total = ?, updated_at = ? WHERE id = ?",
  );
  const doc = get();
  if (!doc) return;
  setState.run("INDEXING", null, 0, 0, deps.nowIso(), documentId);

  let chunks: ReturnType<typeof chunkSections>;
  try {
    const sections = await extractSections(doc.format, await deps.readFile(doc.sha256));
    chunks = chunkSections(sections, doc.format === "MD", deps.settings.chunkSize, deps.settings.chunkOverlap);
    if (!chunks.length) throw new Error("The document contains no text");
  } catch (e) {
    if (get()) setState.run("FAILED", e instanceof Error ? e.message : String(e), 0, 0, deps.nowIso(), documentId);
    return;
  }
  const total = chunks.length;
  setState.run("INDEXING", null, 0, total, deps.nowIso(), documentId);

  let vectors: number[][] | null = null;
  if (deps.ai.embeddingModel) {
    vectors = [];
    try {
      for (let i = 0; i < total; i += EMBED_BATCH) {
        if (!get()) return;
        vectors.push(
          ...(await deps.ai.embed(
            deps.caller,
            chunks.slice(i, i + EMBED_BATCH).map((c) => c.text),
          )),
        );
        setState.run("INDEXING", null, vectors.length, total, deps.nowIso(), documentId);
      }
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      const last = retriesLeft <= 1;
      if (get())
        setState.run(
          last ? "FAILED" : "PENDING",
          last ? reason : `retrying: ${reason}`,
          0,
          total,
          deps.nowIso(),
          documentId,
        );
      throw e;
    }
  }
  const index = knowledgeIndex(db);
  db.transaction(() => {
    if (!get()) return;
    index.replaceDocumentChunks(documentId, doc.base_id, chunks, vectors);
    db.query(
      "UPDATE kb_documents SET status = 'INDEXED', error = NULL, chunks_done = ?, chunks_total = ?, embedded = ?, updated_at = ? WHERE id = ?",
    ).run(total, total, vectors ? 1 : 0, deps.nowIso(), documentId);
    db.query("UPDATE knowledge_bases SET embedding_model = ? WHERE id = ?").run(
      vectors ? deps.ai.embeddingModel : null,
      doc.base_id,
    );
  }).immediate();
}
