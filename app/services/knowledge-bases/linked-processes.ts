import { type BaseHandle, globalSqlite, type KbCtx, tenantSqlite } from "./access";

/**
 * Processes linked to a base. A tenant base is linked only from its tenant; a global one may be linked from any
 * tenant, so its check reads every active tenant's links (a rare SUPER_ADMIN action).
 */
export function linkedProcesses(ctx: KbCtx, h: BaseHandle): string[] {
  const q = "SELECT definition_key k FROM kb_process_links WHERE base_id = ? ORDER BY definition_key";
  if (!h.isGlobal)
    return tenantSqlite(ctx)
      .query<{ k: string }, [string]>(q)
      .all(h.base.id)
      .map((r) => r.k);
  const tenants = globalSqlite(ctx)
    .query<{ id: string; slug: string }, []>("SELECT id, slug FROM tenants WHERE status = 'ACTIVE'")
    .all();
  return tenants.flatMap((t) =>
    ctx
      .tenantDb(t.id)
      .sqlite.query<{ k: string }, [string]>(q)
      .all(h.base.id)
      .map((r) => `${r.k} (${t.slug})`),
  );
}
