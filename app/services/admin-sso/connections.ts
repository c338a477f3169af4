import { asc, eq } from "drizzle-orm";
import { ssoConnections } from "../../../db/platform/schema";
import { discoverOidc, oidcErrorText } from "../../outbound/oidc";
import type { PlatformCtx } from "../context";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../errors";

export type SsoAdminCtx = PlatformCtx<"platformDb" | "sso">;
export type ConnectionRow = typeof ssoConnections.$inferSelect;

export interface ConnectionInput {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  allowedDomains: string[];
  autoProvision: boolean;
  trustEmailClaim: boolean;
  enabled: boolean;
}

/** The client secret is write-only: never part of an answer. */
export function connectionView(r: ConnectionRow) {
  const { clientSecretSealed: _sealed, scopes, allowedDomains, ...rest } = r;
  return { ...rest, scopes: JSON.parse(scopes) as string[], allowedDomains: JSON.parse(allowedDomains) as string[] };
}

function requireSa(ctx: SsoAdminCtx) {
  if (!ctx.actor?.isSuperAdmin) throw new ForbiddenError("Single sign-on connections are managed by a SUPER_ADMIN");
}

export function findConnection(ctx: PlatformCtx<"platformDb">, id: string): ConnectionRow {
  const row = ctx.platformDb.select().from(ssoConnections).where(eq(ssoConnections.id, id)).get();
  if (!row) throw new NotFoundError(`SSO connection ${id} not found`);
  return row;
}

/** Discovery from the issuer on save: a provider that does not answer refuses the save with the reason. */
async function checkDiscovery(ctx: SsoAdminCtx, input: ConnectionInput) {
  try {
    await discoverOidc({ ...input, allowedPrivate: ctx.sso.allowedPrivateHosts });
  } catch (e) {
    throw new BadRequestError(`OIDC discovery from ${input.issuer} failed: ${oidcErrorText(e)}`, [
      { field: "issuer", message: "discovery failed" },
    ]);
  }
}

export function listConnections({ ctx }: { ctx: SsoAdminCtx; input?: undefined }) {
  requireSa(ctx);
  return ctx.platformDb.select().from(ssoConnections).orderBy(asc(ssoConnections.name)).all().map(connectionView);
}

export function getConnection({ ctx, input }: { ctx: SsoAdminCtx; input: { id: string } }) {
  requireSa(ctx);
  return connectionView(findConnection(ctx, input.id));
}

function save(ctx: SsoAdminCtx, row: ConnectionRow, isNew: boolean) {
  const clash = ctx.platformDb.select().from(ssoConnections).where(eq(ssoConnections.name, row.name)).get();
  if (clash && clash.id !== row.id) throw new ConflictError(`An SSO connection named '${row.name}' exists`);
  if (isNew) ctx.platformDb.insert(ssoConnections).values(row).run();
  else ctx.platformDb.update(ssoConnections).set(row).where(eq(ssoConnections.id, row.id)).run();
  return connectionView(row);
}

const toRow = (ctx: SsoAdminCtx, i: ConnectionInput, id: string, createdAt: string): ConnectionRow => ({
  id,
  name: i.name,
  issuer: i.issuer,
  clientId: i.clientId,
  clientSecretSealed: ctx.sso.box.seal(i.clientSecret),
  scopes: JSON.stringify(i.scopes),
  allowedDomains: JSON.stringify(i.allowedDomains.map((d) => d.toLowerCase())),
  autoProvision: i.autoProvision,
  trustEmailClaim: i.trustEmailClaim,
  enabled: i.enabled,
  createdAt,
  updatedAt: new Date(ctx.clock.now()).toISOString(),
});

export async function createConnection({ ctx, input }: { ctx: SsoAdminCtx; input: ConnectionInput }) {
  requireSa(ctx);
  await checkDiscovery(ctx, input);
  return save(ctx, toRow(ctx, input, crypto.randomUUID(), new Date(ctx.clock.now()).toISOString()), true);
}

/** PATCH: absent fields (the secret included) keep their value; discovery runs again on the merged connection. */
export async function updateConnection({
  ctx,
  input,
}: {
  ctx: SsoAdminCtx;
  input: { id: string } & Partial<ConnectionInput>;
}) {
  requireSa(ctx);
  const { id, ...patch } = input;
  const old = findConnection(ctx, id);
  const merged: ConnectionInput = {
    ...connectionView(old),
    clientSecret: ctx.sso.box.open(old.clientSecretSealed),
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
  };
  await checkDiscovery(ctx, merged);
  return save(ctx, toRow(ctx, merged, id, old.createdAt), false);
}

export function deleteConnection({ ctx, input }: { ctx: SsoAdminCtx; input: { id: string } }): void {
  requireSa(ctx);
  findConnection(ctx, input.id);
  ctx.platformDb.delete(ssoConnections).where(eq(ssoConnections.id, input.id)).run();
}
