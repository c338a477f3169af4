import { knowledgeIndex } from "../../ai/knowledge/index-store";
import { BadRequestError, ConflictError } from "../errors";
import {
  assertGlobalWriter,
  assertKnowledgeRole,
  type BaseHandle,
  type BaseRow,
  dropUnreferencedFiles,
  findBase,
  globalSqlite,
  type KbCtx,
  nowIso,
  tenantSqlite,
} from "./access";
import { linkedProcesses } from "./linked-processes";

export interface KnowledgeBaseOut {
  id: string;
  name: string;
  description: string | null;
  isGlobal: boolean;
  createdAt: string;
  updatedAt: string;
}
export interface KnowledgeBaseDetail extends KnowledgeBaseOut {
  documentCount: number;
  chunkCount: number;
  /** The vectors were made with another embedding model than the configured one: reindex the documents. */
  needsReindex: boolean;
}

const out = (r: BaseRow, isGlobal: boolean): KnowledgeBaseOut => ({
  id: r.id,
  name: r.name,
  description: r.description,
  isGlobal,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SHARED = "SELECT * FROM knowledge_bases WHERE kind = 'SHARED' ORDER BY name";

/** GET /a/knowledge-bases: the tenant's bases, then the global ones every tenant sees. */
export function listKnowledgeBases({ ctx }: { ctx: KbCtx; input?: unknown }): KnowledgeBaseOut[] {
  assertKnowledgeRole(ctx);
  const own = tenantSqlite(ctx).query<BaseRow, []>(SHARED).all();
  const global = globalSqlite(ctx).query<BaseRow, []>(SHARED).all();
  return [...own.map((r) => out(r, false)), ...global.map((r) => out(r, true))];
}

/** POST /a/knowledge-bases: 201; isGlobal only for SUPER_ADMIN. */
export function createKnowledgeBase({
  ctx,
  input,
}: {
  ctx: KbCtx;
  input: { name: string; description?: string | null; isGlobal?: boolean };
}): KnowledgeBaseOut {
  assertKnowledgeRole(ctx);
  if (input.isGlobal) assertGlobalWriter(ctx);
  const name = input.name.trim();
  if (!name) throw new BadRequestError("name is required", [{ field: "name", message: "must not be blank" }]);
  const db = input.isGlobal ? globalSqlite(ctx) : tenantSqlite(ctx);
  const now = nowIso(ctx);
  const row = db
    .query<BaseRow, [string, string, string | null, string | null, string, string]>(
      `INSERT INTO knowledge_bases (id, name, description, kind, created_by, created_at, updated_at)
       VALUES (?, ?, ?, 'SHARED', ?, ?, ?) RETURNING *`,
    )
    .get(Bun.randomUUIDv7(), name, input.description ?? null, ctx.actor.userId, now, now)!;
  return out(row, !!input.isGlobal);
}

export function detailOf(ctx: KbCtx, h: BaseHandle): KnowledgeBaseDetail {
  const documentCount =
    h.db.query<{ n: number }, [string]>("SELECT COUNT(*) n FROM kb_documents WHERE base_id = ?").get(h.base.id)?.n ?? 0;
  const chunkCount = knowledgeIndex(h.db).countChunks(h.base.id);
  const needsReindex = chunkCount > 0 && (h.base.embedding_model ?? null) !== (ctx.ai.embeddingModel ?? null);
  return { ...out(h.base, h.isGlobal), documentCount, chunkCount, needsReindex };
}

/** GET /a/knowledge-bases/{id}: with the document count. */
export function getKnowledgeBase({ ctx, input }: { ctx: KbCtx; input: { id: string } }): KnowledgeBaseDetail {
  assertKnowledgeRole(ctx);
  return detailOf(ctx, findBase(ctx, input.id));
}

/** Deletes a base's documents, chunks and both indexes in one transaction, then the files nothing else uses. */
export function wipeBase(h: BaseHandle, deleteBase: boolean): void {
  const shas = h.db
    .query<{ sha256: string }, [string]>("SELECT sha256 FROM kb_documents WHERE base_id = ?")
    .all(h.base.id)
    .map((r) => r.sha256);
  h.db
    .transaction(() => {
      knowledgeIndex(h.db).removeBase(h.base.id);
      h.db.query("DELETE FROM kb_documents WHERE base_id = ?").run(h.base.id);
      if (deleteBase) h.db.query("DELETE FROM knowledge_bases WHERE id = ?").run(h.base.id);
    })
    .immediate();
  dropUnreferencedFiles(h, shas);
}

/** DELETE /a/knowledge-bases/{id}: refused (409) while a process is linked; a global base only by SUPER_ADMIN. */
export function deleteKnowledgeBase({ ctx, input }: { ctx: KbCtx; input: { id: string } }) {
  assertKnowledgeRole(ctx);
  const h = findBase(ctx, input.id);
  if (h.isGlobal) assertGlobalWriter(ctx);
  const linked = linkedProcesses(ctx, h);
  if (linked.length)
    throw new ConflictError(
      `Knowledge base ${h.base.name} is linked to processes: ${linked.join(", ")}; unlink them first`,
    );
  wipeBase(h, true);
}
