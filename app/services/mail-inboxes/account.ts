import { eq } from "drizzle-orm";
import { mailInboxes, tenantVariables } from "../../../db/tenant/schema";
import type { ImapAccount } from "../../outbound/imap";
import { requestAccessToken } from "../../outbound/oauth-token";
import type { TenantDb } from "../../../tenants/tenant-db-cache";
import type { TenantCtx } from "../context";
import { BadRequestError } from "../errors";
import { sealSecret, storedValue } from "../tenant-variables/sealing";
import type { OAuthSettings } from "./oauth-presets";

/** Tenant variable listing internal hosts an inbox may reach (comma-separated; same rule as data sources). */
export const MAIL_ALLOWED_PRIVATE_HOSTS_VARIABLE = "MAIL_ALLOWED_PRIVATE_HOSTS";

/** An access token is replaced this long before it expires, so no session starts with one about to lapse. */
export const ACCESS_TOKEN_MARGIN_MS = 5 * 60_000;

type InboxRow = typeof mailInboxes.$inferSelect;
type Server = Pick<InboxRow, "host" | "port" | "tlsMode" | "username">;

function variable(db: TenantDb, name: string) {
  return db.orm.select().from(tenantVariables).where(eq(tenantVariables.name, name)).get();
}

/** The internal hosts the tenant lets its inboxes (IMAP and token endpoint) reach. */
export function mailAllowedPrivate(db: TenantDb): string[] {
  const hosts = variable(db, MAIL_ALLOWED_PRIVATE_HOSTS_VARIABLE);
  return (hosts ? storedValue(db, hosts.value) : "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

export const accountServer = (db: TenantDb, inbox: Server) => ({
  host: inbox.host,
  port: inbox.port,
  tlsMode: inbox.tlsMode as ImapAccount["tlsMode"],
  username: inbox.username,
  allowedPrivate: mailAllowedPrivate(db),
});

/** The account of a password inbox, its password resolved from the secret variable (400 when missing or not secret). */
export function accountOf(db: TenantDb, inbox: Server & Pick<InboxRow, "passwordVariable">): ImapAccount {
  const name = inbox.passwordVariable ?? "";
  const secret = name ? variable(db, name) : undefined;
  if (!secret?.secret) {
    throw new BadRequestError(`passwordVariable must name a secret tenant variable; '${name}' is not one`, [
      { field: "passwordVariable", message: "not a secret tenant variable" },
    ]);
  }
  return { ...accountServer(db, inbox), password: storedValue(db, secret.value) };
}

/** The stored OAuth2 settings of an inbox with its secrets opened (null for a password inbox). */
export function oauthSettingsOf(db: TenantDb, inbox: InboxRow): OAuthSettings | null {
  if (inbox.authMethod !== "OAUTH2" || !inbox.oauthProvider || !inbox.oauthGrant) return null;
  return {
    provider: inbox.oauthProvider,
    grant: inbox.oauthGrant,
    clientId: inbox.oauthClientId ?? "",
    clientSecret: inbox.oauthClientSecret ? storedValue(db, inbox.oauthClientSecret) : "",
    refreshToken: inbox.oauthRefreshToken ? storedValue(db, inbox.oauthRefreshToken) : null,
    tokenUrl: inbox.oauthTokenUrl ?? "",
    scope: inbox.oauthScope,
  };
}

/** The row columns of OAuth2 settings and a fresh token, sealed as stored. */
export function sealedOAuthColumns(
  db: TenantDb,
  s: OAuthSettings,
  token: { accessToken: string; expiresAt: string; refreshToken?: string },
) {
  const refresh = token.refreshToken ?? s.refreshToken;
  return {
    oauthProvider: s.provider,
    oauthGrant: s.grant,
    oauthClientId: s.clientId,
    oauthTokenUrl: s.tokenUrl,
    oauthScope: s.scope,
    oauthClientSecret: sealSecret(db, s.clientSecret),
    oauthRefreshToken: refresh ? sealSecret(db, refresh) : null,
    oauthAccessToken: sealSecret(db, token.accessToken),
    oauthAccessExpiresAt: token.expiresAt,
  };
}

/** Asks the token endpoint for a new access token (under the tenant's outbound allowance). */
export async function freshToken(db: TenantDb, s: OAuthSettings, now: number) {
  const answer = await requestAccessToken({ ...s, allowedPrivate: mailAllowedPrivate(db) });
  return {
    accessToken: answer.accessToken,
    expiresAt: new Date(now + answer.expiresIn * 1000).toISOString(),
    ...(answer.refreshToken ? { refreshToken: answer.refreshToken } : {}),
  };
}

/** The account of a password inbox, or of an OAuth2 one whose stored access token is still good; else null. */
export function storedAccount(ctx: TenantCtx<"db">, inbox: InboxRow): ImapAccount | null {
  if (inbox.authMethod !== "OAUTH2") return accountOf(ctx.db, inbox);
  if (!inbox.oauthAccessToken || !inbox.oauthAccessExpiresAt) return null;
  if (Date.parse(inbox.oauthAccessExpiresAt) - ctx.clock.now() <= ACCESS_TOKEN_MARGIN_MS) return null;
  return { ...accountServer(ctx.db, inbox), accessToken: storedValue(ctx.db, inbox.oauthAccessToken) };
}

/**
 * The account an inbox logs in with. OAuth2: the stored access token while it has more than the margin left, else a
 * new one from the token endpoint, stored (with a rotated refresh token) before it is used. A refusal of the token
 * endpoint throws (OAuthTokenError), which the poller records on the inbox.
 */
export async function inboxAccount(ctx: TenantCtx<"db">, inbox: InboxRow): Promise<ImapAccount> {
  const stored = storedAccount(ctx, inbox);
  if (stored) return stored;
  const settings = oauthSettingsOf(ctx.db, inbox);
  if (!settings) return accountOf(ctx.db, inbox);
  const now = ctx.clock.now();
  const token = await freshToken(ctx.db, settings, now);
  const columns = sealedOAuthColumns(ctx.db, settings, token);
  ctx.db.orm.update(mailInboxes).set(columns).where(eq(mailInboxes.id, inbox.id)).run();
  Object.assign(inbox, columns); // the caller's row stays current (a watch after a poll reuses the token)
  return { ...accountServer(ctx.db, inbox), accessToken: token.accessToken };
}
