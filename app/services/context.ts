import type { TenantDb } from "../../tenants/tenant-db-cache";
import type { TenantRecord } from "../../tenants/tenant-directory";
import type { Platform } from "../platform/platform";

export type TenantRole = "ADMIN" | "MODELER" | "MANAGER" | "USER";
export const TENANT_ROLES: readonly TenantRole[] = ["ADMIN", "MODELER", "MANAGER", "USER"];
export type Channel = "REST" | "API_KEY" | "MCP" | "SYSTEM";

/** Who is acting: a user (token or Basic), an API key, or the system itself. */
export interface Actor {
  kind: "user" | "apiKey" | "system";
  userId: string | null;
  email: string | null;
  isSuperAdmin: boolean;
  /** Roles held in the selected tenant; empty for API keys. */
  tenantRoles: TenantRole[];
  apiKeyId: string | null;
  channel: Channel;
}

/** Everything a tenant service needs; the tenant is fixed by authentication, so isolation is structural. */
export interface RequestCtx {
  platform: Platform;
  tenant: TenantRecord;
  actor: Actor;
  db: TenantDb;
  requestId: string;
}

export const isAdmin = (a: Actor) => a.isSuperAdmin || a.tenantRoles.includes("ADMIN");
export const isManager = (a: Actor) => isAdmin(a) || a.tenantRoles.includes("MANAGER");
export const isModeler = (a: Actor) => isAdmin(a) || a.tenantRoles.includes("MODELER");
/** Roles that see the whole tenant's instances and tasks. */
export const seesWholeTenant = isManager;
