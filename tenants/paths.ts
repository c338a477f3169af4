import { join } from "node:path";

/** Folder of one tenant: its SQLite file and its stored files live here. */
export function tenantDir(dataDir: string, tenantId: string): string {
  return join(dataDir, "tenants", tenantId);
}

export function tenantDbPath(dataDir: string, tenantId: string): string {
  return join(tenantDir(dataDir, tenantId), "tenant.sqlite");
}

export function tenantFilesDir(dataDir: string, tenantId: string): string {
  return join(tenantDir(dataDir, tenantId), "files");
}

export function platformDbPath(dataDir: string): string {
  return join(dataDir, "platform.sqlite");
}

export function engineDbPath(dataDir: string): string {
  return join(dataDir, "engine.sqlite");
}
