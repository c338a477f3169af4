import { readFile } from "node:fs/promises";
import { indexDocument } from "../../ai/knowledge/indexer";
import { readRagSettings } from "../../ai/knowledge/rag-settings";
import type { ServiceJob } from "../../runtime/kernel/service-jobs";
import { TenantFileStore } from "../attachments/file-store";
import type { TenantCtx } from "../context";
import { GLOBAL_FILES_OWNER } from "./access";
import { queueIvfIfDue } from "./ivf-job";

export type KbJobCtx = TenantCtx<"db" | "platformDb" | "settings" | "ai" | "serviceJobs">;

/**
 * The `svc:kb-index` job: indexes one document of the tenant's (or a global) base. Indexing is the system acting for
 * the tenant, so embedding calls count against the tenant's quota and no user's.
 */
export async function runIndexJob({ ctx, input }: { ctx: KbJobCtx; input: ServiceJob }): Promise<void> {
  const data = input.data as { documentId: string; global?: boolean };
  const db = data.global ? ctx.platformDb.$client : ctx.db.sqlite;
  const files = new TenantFileStore(ctx.settings.dataDir, data.global ? GLOBAL_FILES_OWNER : ctx.tenant.id);
  await indexDocument(
    {
      db,
      readFile: async (sha) => new Uint8Array(await readFile(files.pathOf(sha))),
      ai: ctx.ai,
      caller: { tenantId: ctx.tenant.id, kind: "SYSTEM", userId: null, apiKeyId: null, feature: "kb-index" },
      settings: readRagSettings(ctx.platformDb.$client),
      nowIso: () => new Date(ctx.clock.now()).toISOString(),
    },
    data.documentId,
    input.retriesLeft,
  );
  // A base grown past the threshold (or doubled since its quantiser was trained) gets its IVF (re)built.
  const doc = db.query<{ b: string }, [string]>("SELECT base_id b FROM kb_documents WHERE id = ?").get(data.documentId);
  if (doc) await queueIvfIfDue(ctx, db, doc.b, data.global === true);
}
