import { eq } from "drizzle-orm";
import { mcpServers } from "../../../db/platform/schema";
import type { PlatformCtx } from "../context";
import { BadRequestError, ConflictError, type FieldError, ForbiddenError, NotFoundError } from "../errors";
import { checkTargetUrl } from "../webhooks/validate";
import { type McpServerRow, type McpServerView, serverById, serverByName, serverView, allServers } from "./store";

export type McpServersAdminCtx = PlatformCtx<"platformDb" | "tenants" | "mcpServers">;

export interface McpServerInput {
  name: string;
  description?: string | null;
  url: string;
  /** The header sent with every request (an API key, a bearer token); its value is sealed and never answered. */
  authHeader?: { name: string; value: string } | null;
  allowedTenants: string[];
  enabled?: boolean;
}

function requireSa(ctx: McpServersAdminCtx) {
  if (!ctx.actor?.isSuperAdmin) throw new ForbiddenError("MCP servers are registered by a SUPER_ADMIN");
}

function findServer(ctx: McpServersAdminCtx, id: string): McpServerRow {
  const row = serverById(ctx.platformDb, id);
  if (!row) throw new NotFoundError(`MCP server ${id} not found`);
  return row;
}

/** The URL passes the outbound address policy now (each exchange checks it again); the tenants exist. */
async function checkInput(ctx: McpServersAdminCtx, input: Pick<McpServerInput, "url" | "allowedTenants">) {
  const url = await checkTargetUrl(ctx.mcpServers.settings.limits, input.url);
  const unknown: FieldError[] = input.allowedTenants
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !ctx.tenants.get(id))
    .map(({ id, i }) => ({ field: `allowedTenants.${i}`, message: `tenant ${id} not found` }));
  if (unknown.length)
    throw new BadRequestError(
      `allowedTenants names unknown tenants: ${unknown.map((u) => u.message).join("; ")}`,
      unknown,
    );
  return url;
}

const now = (ctx: McpServersAdminCtx) => new Date(ctx.clock.now()).toISOString();

/** GET /admin/mcp-servers */
export function listMcpServers({ ctx }: { ctx: McpServersAdminCtx; input?: undefined }): McpServerView[] {
  requireSa(ctx);
  return allServers(ctx.platformDb).map(serverView);
}

/** GET /admin/mcp-servers/{id} */
export function getMcpServer({ ctx, input }: { ctx: McpServersAdminCtx; input: { id: string } }): McpServerView {
  requireSa(ctx);
  return serverView(findServer(ctx, input.id));
}

/** POST /admin/mcp-servers: 201; 409 when the name is taken; 400 for a URL the policy refuses or an unknown tenant. */
export async function createMcpServer({ ctx, input }: { ctx: McpServersAdminCtx; input: McpServerInput }) {
  requireSa(ctx);
  const url = await checkInput(ctx, input);
  if (serverByName(ctx.platformDb, input.name)) throw new ConflictError(`An MCP server named '${input.name}' exists`);
  const at = now(ctx);
  const row = ctx.platformDb
    .insert(mcpServers)
    .values({
      id: Bun.randomUUIDv7(),
      name: input.name,
      description: input.description ?? null,
      url,
      authHeaderName: input.authHeader?.name ?? null,
      authHeaderValueSealed: input.authHeader ? ctx.mcpServers.box.seal(input.authHeader.value) : null,
      allowedTenants: JSON.stringify([...new Set(input.allowedTenants)]),
      enabled: input.enabled ?? true,
      createdAt: at,
      updatedAt: at,
    })
    // The check above ran before the address policy's lookup (an await): a concurrent create of the same name is
    // told by the unique index, as the same 409.
    .onConflictDoNothing({ target: mcpServers.name })
    .returning()
    .get();
  if (!row) throw new ConflictError(`An MCP server named '${input.name}' exists`);
  return serverView(row);
}

/**
 * PATCH /admin/mcp-servers/{id}: absent fields keep their value (the auth header included; null removes it). The name
 * stays: it is part of the tool names agents were offered and of their configurations.
 */
export async function updateMcpServer({
  ctx,
  input,
}: {
  ctx: McpServersAdminCtx;
  input: { id: string } & Partial<Omit<McpServerInput, "name">>;
}) {
  requireSa(ctx);
  const old = findServer(ctx, input.id);
  const url = await checkInput(ctx, {
    url: input.url ?? old.url,
    allowedTenants: input.allowedTenants ?? JSON.parse(old.allowedTenants),
  });
  const changes: Partial<McpServerRow> = { url, updatedAt: now(ctx) };
  if (input.description !== undefined) changes.description = input.description;
  if (input.allowedTenants) changes.allowedTenants = JSON.stringify([...new Set(input.allowedTenants)]);
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.authHeader !== undefined) {
    changes.authHeaderName = input.authHeader?.name ?? null;
    changes.authHeaderValueSealed = input.authHeader ? ctx.mcpServers.box.seal(input.authHeader.value) : null;
  }
  const row = ctx.platformDb.update(mcpServers).set(changes).where(eq(mcpServers.id, old.id)).returning().get();
  // The next run discovers the server again at its new address, with its new header.
  ctx.mcpServers.forget(old.id);
  return serverView(row);
}

/** DELETE /admin/mcp-servers/{id}: agents naming it keep the name and are offered none of its tools any more. */
export function deleteMcpServer({ ctx, input }: { ctx: McpServersAdminCtx; input: { id: string } }): void {
  requireSa(ctx);
  const row = findServer(ctx, input.id);
  ctx.platformDb.delete(mcpServers).where(eq(mcpServers.id, row.id)).run();
  ctx.mcpServers.forget(row.id);
}
