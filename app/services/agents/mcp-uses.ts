import { serverByName, servesTenant } from "../admin-mcp-servers/store";
import type { FieldError } from "../errors";
import { GLOBAL_SCOPE, type McpServerUse } from "./store";

type UsesInput = { mcpServers?: { server: string; tools?: string[] | null }[] };

/** The stored form: each server once, its tool list without repeats (null = all its tools). */
export const mcpUsesOf = (input: UsesInput): McpServerUse[] =>
  (input.mcpServers ?? []).map((u) => ({ server: u.server, tools: u.tools ? [...new Set(u.tools)] : null }));

/**
 * An agent may name only servers registered for its tenant (a global agent: any registered server; each run is then
 * offered only those allowed for the tenant it runs in). Another tenant's server reads as one that does not exist.
 */
export function mcpServerErrors(db: Parameters<typeof serverByName>[0], scope: string, input: UsesInput): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, use] of (input.mcpServers ?? []).entries()) {
    const field = `mcpServers.${i}.server`;
    if (seen.has(use.server)) errors.push({ field, message: `server '${use.server}' is listed twice` });
    seen.add(use.server);
    const row = serverByName(db, use.server);
    const usable = row && (scope === GLOBAL_SCOPE || servesTenant(row, scope));
    if (!usable) errors.push({ field, message: `no MCP server '${use.server}' is available to this tenant` });
  }
  return errors;
}
