import { asc, eq } from "drizzle-orm";
import { mcpServers } from "../../../db/platform/schema";
import type { TenantCtx } from "../context";

export type McpServerRow = typeof mcpServers.$inferSelect;
type Db = TenantCtx<"platformDb">["platformDb"];

/** A registered server as a GET answers it: the auth header's value never, only whether one is set. */
export interface McpServerView {
  id: string;
  name: string;
  description: string | null;
  url: string;
  authHeaderName: string | null;
  authHeaderSet: boolean;
  allowedTenants: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export const allowedTenantsOf = (r: McpServerRow): string[] => JSON.parse(r.allowedTenants);

export function serverView(r: McpServerRow): McpServerView {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    url: r.url,
    authHeaderName: r.authHeaderName,
    authHeaderSet: r.authHeaderValueSealed !== null,
    allowedTenants: allowedTenantsOf(r),
    enabled: r.enabled,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const allServers = (db: Db): McpServerRow[] => db.select().from(mcpServers).orderBy(asc(mcpServers.name)).all();

export const serverById = (db: Db, id: string): McpServerRow | undefined =>
  db.select().from(mcpServers).where(eq(mcpServers.id, id)).get();

export const serverByName = (db: Db, name: string): McpServerRow | undefined =>
  db.select().from(mcpServers).where(eq(mcpServers.name, name)).get();

/** Whether a tenant's agents may use the server: enabled, and the tenant among its allowed ones. */
export const servesTenant = (r: McpServerRow, tenantId: string): boolean =>
  r.enabled && allowedTenantsOf(r).includes(tenantId);

/** The servers a tenant's agents may use, by name (what a modeler may list in an agent's configuration). */
export const serversOfTenant = (db: Db, tenantId: string): McpServerRow[] =>
  allServers(db).filter((r) => servesTenant(r, tenantId));
