import { ConflictError, NotFoundError } from "../errors";
import { assertKnowledgeRole, findBase, type KbCtx, nowIso, tenantSqlite } from "./access";
import type { KnowledgeBaseOut } from "./bases";
import { listKnowledgeBases } from "./bases";

/** GET /a/knowledge-bases/process/{definitionKey}: the bases linked to the process. */
export function listProcessBases({ ctx, input }: { ctx: KbCtx; input: { definitionKey: string } }): KnowledgeBaseOut[] {
  assertKnowledgeRole(ctx);
  const ids = new Set(
    tenantSqlite(ctx)
      .query<{ base_id: string }, [string]>("SELECT base_id FROM kb_process_links WHERE definition_key = ?")
      .all(input.definitionKey)
      .map((r) => r.base_id),
  );
  return listKnowledgeBases({ ctx }).filter((b) => ids.has(b.id));
}

/** POST /a/knowledge-bases/process/{definitionKey}/link/{id}: 201; linking twice is a conflict. */
export function linkProcess({ ctx, input }: { ctx: KbCtx; input: { definitionKey: string; id: string } }) {
  assertKnowledgeRole(ctx);
  const h = findBase(ctx, input.id);
  const r = tenantSqlite(ctx)
    .query("INSERT OR IGNORE INTO kb_process_links (definition_key, base_id, created_at) VALUES (?, ?, ?)")
    .run(input.definitionKey, h.base.id, nowIso(ctx));
  if (!r.changes) throw new ConflictError(`Process ${input.definitionKey} is already linked to this knowledge base`);
  return { definitionKey: input.definitionKey, knowledgeBaseId: h.base.id };
}

/** DELETE /a/knowledge-bases/process/{definitionKey}/unlink/{id}: 404 when there is no such link. */
export function unlinkProcess({ ctx, input }: { ctx: KbCtx; input: { definitionKey: string; id: string } }): void {
  assertKnowledgeRole(ctx);
  const r = tenantSqlite(ctx)
    .query("DELETE FROM kb_process_links WHERE definition_key = ? AND base_id = ?")
    .run(input.definitionKey, input.id);
  if (!r.changes) throw new NotFoundError(`Process ${input.definitionKey} is not linked to knowledge base ${input.id}`);
}
