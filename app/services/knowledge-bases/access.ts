import type { Database } from "bun:sqlite";
import { knowledgeIndex } from "../../ai/knowledge/index-store";
import { TenantFileStore } from "../attachments/file-store";
import { isManager, isModeler, type TenantCtx } from "../context";
import { ForbiddenError, NotFoundError } from "../errors";

export type KbCtx = TenantCtx<"db" | "platformDb" | "settings" | "ai" | "serviceJobs" | "tenantDb">;

/** The files of global bases live in a folder of their own beside the tenants' (content-addressed, like theirs). */
export const GLOBAL_FILES_OWNER = "_global";
export const KB_INDEX_JOB = "svc:kb-index";
export const KB_IVF_JOB = "svc:kb-ivf";

export interface BaseRow {
  id: string;
  name: string;
  description: string | null;
  kind: "SHARED" | "PROCESS";
  process_key: string | null;
  embedding_model: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a base lives: a tenant's file, or the platform database for a global one. */
export interface BaseHandle {
  base: BaseRow;
  isGlobal: boolean;
  db: Database;
  files: TenantFileStore;
}

/** Every knowledge route: Manager or Modeler (SUPER_ADMIN passes); an API key has no membership and is refused. */
export function assertKnowledgeRole(ctx: KbCtx): void {
  if (!(isManager(ctx.actor) || isModeler(ctx.actor)))
    throw new ForbiddenError("Knowledge bases require the MANAGER, MODELER or ADMIN role");
}

/** Writing the global layer (a global base, its documents) is SUPER_ADMIN's alone. */
export function assertGlobalWriter(ctx: KbCtx): void {
  if (!ctx.actor.isSuperAdmin) throw new ForbiddenError("Only a SUPER_ADMIN writes global knowledge bases");
}

export const tenantSqlite = (ctx: KbCtx) => ctx.db.sqlite;
export const globalSqlite = (ctx: KbCtx) => ctx.platformDb.$client;
export const nowIso = (ctx: KbCtx) => new Date(ctx.clock.now()).toISOString();

export function handleOf(ctx: KbCtx, base: BaseRow, isGlobal: boolean): BaseHandle {
  const db = isGlobal ? globalSqlite(ctx) : tenantSqlite(ctx);
  knowledgeIndex(db);
  const owner = isGlobal ? GLOBAL_FILES_OWNER : ctx.tenant.id;
  return { base, isGlobal, db, files: new TenantFileStore(ctx.settings.dataDir, owner) };
}

const byId = (db: Database, id: string, kind: "SHARED" | "PROCESS") =>
  db.query<BaseRow, [string, string]>("SELECT * FROM knowledge_bases WHERE id = ? AND kind = ?").get(id, kind);

/** A base the tenant sees (its own, or a global one); another tenant's id is simply not found. */
export function findBase(ctx: KbCtx, id: string): BaseHandle {
  const own = byId(tenantSqlite(ctx), id, "SHARED");
  if (own) return handleOf(ctx, own, false);
  const global = byId(globalSqlite(ctx), id, "SHARED");
  if (global) return handleOf(ctx, global, true);
  throw new NotFoundError(`Knowledge base ${id} not found`);
}

/** The hidden base holding a process's own knowledge documents (created on first upload when `create`). */
export function processBase(ctx: KbCtx, definitionKey: string, create: boolean): BaseHandle | null {
  const db = tenantSqlite(ctx);
  const found = db
    .query<BaseRow, [string]>("SELECT * FROM knowledge_bases WHERE kind = 'PROCESS' AND process_key = ?")
    .get(definitionKey);
  if (found) return handleOf(ctx, found, false);
  if (!create) return null;
  const now = nowIso(ctx);
  const row = db
    .query<BaseRow, [string, string, string, string | null, string, string]>(
      `INSERT INTO knowledge_bases (id, name, description, kind, process_key, created_by, created_at, updated_at)
       VALUES (?, ?, NULL, 'PROCESS', ?, ?, ?, ?) RETURNING *`,
    )
    .get(Bun.randomUUIDv7(), `Process ${definitionKey}`, definitionKey, ctx.actor.userId, now, now)!;
  return handleOf(ctx, row, false);
}

/** Removes stored files no row refers to any more (a file may be shared with attachments or another document). */
export function dropUnreferencedFiles(h: BaseHandle, shas: string[]): void {
  const stillUsed = (sha: string) =>
    h.db.query("SELECT 1 FROM kb_documents WHERE sha256 = ? LIMIT 1").get(sha) ||
    (!h.isGlobal && h.db.query("SELECT 1 FROM attachments WHERE sha256 = ? LIMIT 1").get(sha));
  for (const sha of new Set(shas)) if (!stillUsed(sha)) h.files.remove(sha);
}
