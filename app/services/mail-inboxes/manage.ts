import { asc, eq } from "drizzle-orm";
import { mailInboxes } from "../../../db/tenant/schema";
import { DestinationRefused } from "../../outbound/address-policy";
import { type ImapAccount, imapErrorText, testImapLogin } from "../../outbound/imap";
import type { TenantCtx } from "../context";
import { BadRequestError, NotFoundError } from "../errors";
import { accountOf, accountServer, freshToken, oauthSettingsOf, sealedOAuthColumns } from "./account";
import { type OAuthInput, type OAuthSettings, presetServer, resolveOAuth } from "./oauth-presets";

export type MailInboxesCtx = TenantCtx<"db">;
type Row = typeof mailInboxes.$inferSelect;

export interface InboxInput {
  name: string;
  /** Default: the OAuth2 provider preset's server. */
  host?: string;
  port?: number;
  tlsMode?: "TLS" | "STARTTLS" | "NONE";
  username: string;
  /** Default: OAUTH2 when `oauth` is given, else PASSWORD. */
  authMethod?: "PASSWORD" | "OAUTH2";
  passwordVariable?: string | null;
  oauth?: OAuthInput;
  folder: string;
  pollIntervalSeconds: number;
  afterRead: "FLAG" | "MOVE";
  moveToFolder: string | null;
  enabled: boolean;
}

const NO_OAUTH = {
  oauthProvider: null,
  oauthGrant: null,
  oauthClientId: null,
  oauthTokenUrl: null,
  oauthScope: null,
  oauthClientSecret: null,
  oauthRefreshToken: null,
  oauthAccessToken: null,
  oauthAccessExpiresAt: null,
} as const;

/** What an Admin sees: the password's variable name and the OAuth2 client, never a secret or token. */
export function inboxView(r: Row) {
  const {
    createdAt,
    updatedAt,
    oauthProvider,
    oauthGrant,
    oauthClientId,
    oauthTokenUrl,
    oauthScope,
    oauthClientSecret: _secret,
    oauthRefreshToken: _refresh,
    oauthAccessToken: _access,
    oauthAccessExpiresAt,
    ...rest
  } = r;
  const oauth =
    r.authMethod === "OAUTH2"
      ? {
          provider: oauthProvider,
          grant: oauthGrant,
          clientId: oauthClientId,
          tokenUrl: oauthTokenUrl,
          scope: oauthScope,
          accessTokenExpiresAt: oauthAccessExpiresAt,
        }
      : null;
  return { ...rest, oauth, createdAt, updatedAt };
}

export function findInbox(ctx: MailInboxesCtx, id: string): Row {
  const row = ctx.db.orm.select().from(mailInboxes).where(eq(mailInboxes.id, id)).get();
  if (!row) throw new NotFoundError(`Mail inbox ${id} not found`);
  return row;
}

type Draft = Omit<Row, keyof typeof NO_OAUTH>;

/**
 * Logs in with the inbox's account (OAuth2: with an access token asked for now); a refusal answers 400 carrying the
 * server's own words. Answers the row columns of the authentication, secrets sealed.
 */
async function testCredentials(ctx: MailInboxesCtx, draft: Draft, oauth: OAuthSettings | null) {
  if (draft.afterRead === "MOVE" && !draft.moveToFolder) {
    throw new BadRequestError("moveToFolder is required when afterRead is MOVE", [
      { field: "moveToFolder", message: "is required when afterRead is MOVE" },
    ]);
  }
  let account: ImapAccount;
  let columns: Omit<Row, keyof Draft> = NO_OAUTH;
  if (oauth) {
    let token: Awaited<ReturnType<typeof freshToken>>;
    try {
      token = await freshToken(ctx.db, oauth, ctx.clock.now());
    } catch (e) {
      if (e instanceof DestinationRefused)
        throw new BadRequestError(`The OAuth2 token endpoint is refused: ${e.message}`, [
          { field: "oauth.tokenUrl", message: e.message },
        ]);
      throw new BadRequestError(`The OAuth2 client was refused: ${imapErrorText(e)}`);
    }
    columns = sealedOAuthColumns(ctx.db, oauth, token);
    account = { ...accountServer(ctx.db, draft), accessToken: token.accessToken };
  } else account = accountOf(ctx.db, draft);
  try {
    await testImapLogin(account, draft.folder);
  } catch (e) {
    throw new BadRequestError(`The mail server refused the inbox: ${imapErrorText(e)}`);
  }
  return columns;
}

/** The authentication of a draft: PASSWORD needs its variable, OAUTH2 its resolved settings. */
function authOf(draft: Draft, given: Partial<InboxInput>, old: OAuthSettings | null): OAuthSettings | null {
  const { oauth } = given;
  if (draft.authMethod === "PASSWORD" && oauth)
    throw new BadRequestError("oauth is only for authMethod OAUTH2", [{ field: "oauth", message: "only for OAUTH2" }]);
  if (draft.authMethod === "OAUTH2" && given.passwordVariable)
    throw new BadRequestError("passwordVariable is only for authMethod PASSWORD", [
      { field: "passwordVariable", message: "only for PASSWORD" },
    ]);
  if (draft.authMethod === "PASSWORD") {
    if (!draft.passwordVariable)
      throw new BadRequestError("passwordVariable is required for PASSWORD", [
        { field: "passwordVariable", message: "is required for PASSWORD" },
      ]);
    return null;
  }
  draft.passwordVariable = null;
  return resolveOAuth(oauth ?? {}, old);
}

function serverFields(input: Partial<InboxInput>, old: Row | null) {
  const preset = presetServer(input.oauth?.provider);
  const pick = <K extends "host" | "port" | "tlsMode">(k: K) => {
    const v = input[k] ?? (preset ? preset[k] : undefined) ?? old?.[k];
    if (v === undefined) throw new BadRequestError(`${k} is required`, [{ field: k, message: "is required" }]);
    return v as NonNullable<InboxInput[K]>;
  };
  return { host: pick("host"), port: pick("port"), tlsMode: pick("tlsMode") };
}

export function listInboxes({ ctx }: { ctx: MailInboxesCtx; input?: undefined }) {
  return ctx.db.orm.select().from(mailInboxes).orderBy(asc(mailInboxes.name)).all().map(inboxView);
}

export function getInbox({ ctx, input }: { ctx: MailInboxesCtx; input: { id: string } }) {
  return inboxView(findInbox(ctx, input.id));
}

/** GET /a/mail-rules/inboxes: what a Modeler may know of the inboxes to pick one for a rule. */
export function inboxSummaries({ ctx }: { ctx: MailInboxesCtx; input?: undefined }) {
  return ctx.db.orm
    .select({ id: mailInboxes.id, name: mailInboxes.name, status: mailInboxes.status })
    .from(mailInboxes)
    .orderBy(asc(mailInboxes.name))
    .all();
}

export async function createInbox({ ctx, input }: { ctx: MailInboxesCtx; input: InboxInput }) {
  const at = new Date(ctx.clock.now()).toISOString();
  const { oauth, ...fields } = input;
  const draft: Draft = {
    id: crypto.randomUUID(),
    ...fields,
    ...serverFields(input, null),
    authMethod: input.authMethod ?? (oauth ? "OAUTH2" : "PASSWORD"),
    passwordVariable: input.passwordVariable ?? null,
    status: "ACTIVE",
    lastError: null,
    lastPollAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const columns = await testCredentials(ctx, draft, authOf(draft, input, null));
  const row: Row = { ...draft, ...columns };
  ctx.db.orm.insert(mailInboxes).values(row).run();
  return inboxView(row);
}

/**
 * PATCH: absent fields keep their value (OAuth2 secrets too); the merged account is tested again (OAuth2: with a
 * new access token) before anything is saved, and a successful test clears an ERROR.
 */
export async function updateInbox({
  ctx,
  input,
}: {
  ctx: MailInboxesCtx;
  input: { id: string } & Partial<InboxInput>;
}) {
  const { id, oauth, ...patch } = input;
  const old = findInbox(ctx, id);
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  // The stored OAuth2 columns are replaced by what the test of the merged account answers (NO_OAUTH for a password).
  const draft = { ...old, ...NO_OAUTH, ...given, ...serverFields(input, old) } as Draft;
  if (oauth && !patch.authMethod) draft.authMethod = "OAUTH2";
  const columns = await testCredentials(ctx, draft, authOf(draft, input, oauthSettingsOf(ctx.db, old)));
  const at = new Date(ctx.clock.now()).toISOString();
  const next: Row = { ...draft, ...columns, status: "ACTIVE", lastError: null, updatedAt: at };
  ctx.db.orm.update(mailInboxes).set(next).where(eq(mailInboxes.id, id)).run();
  return inboxView(next);
}

export function deleteInbox({ ctx, input }: { ctx: MailInboxesCtx; input: { id: string } }): void {
  findInbox(ctx, input.id);
  ctx.db.orm.delete(mailInboxes).where(eq(mailInboxes.id, input.id)).run();
}
