import { and, asc, eq, lt } from "drizzle-orm";
import { ssoCodes, ssoConnections, ssoFlows, users } from "../../../db/platform/schema";
import { immediate } from "../../../db/connection";
import { authorizationUrl, discoverOidc, newChecks, oidcErrorText, redeemCode } from "../../outbound/oidc";
import type { PlatformCtx } from "../context";
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from "../errors";
import { hashPassword } from "../auth/passwords";
import { randomSecret, sha256 } from "../auth/tokens";
import { createSession, issueRefreshToken, sessionResponse, type UserRow } from "../auth/sessions";
import type { ConnectionRow } from "../admin-sso/connections";

export type SsoFlowCtx = PlatformCtx<"platformDb" | "tenants" | "tokens" | "sso">;

/** An authorization must come back within 10 minutes; the browser's one-time code lives 2 minutes. */
export const FLOW_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 2 * 60_000;

const callbackUri = (ctx: SsoFlowCtx) => `${ctx.sso.publicUrl}/api/auth/sso/callback`;

function clientOf(ctx: SsoFlowCtx, c: ConnectionRow) {
  return discoverOidc({
    issuer: c.issuer,
    clientId: c.clientId,
    clientSecret: ctx.sso.box.open(c.clientSecretSealed),
    allowedPrivate: ctx.sso.allowedPrivateHosts,
  });
}

/**
 * GET /auth/sso/connections: the names of the enabled connections, for a login page to offer a button each. Nothing
 * else of a connection is public (issuer, client and domains stay with the SUPER_ADMIN).
 */
export function enabledConnections({ ctx }: { ctx: PlatformCtx<"platformDb">; input?: undefined }) {
  return ctx.platformDb
    .select({ name: ssoConnections.name })
    .from(ssoConnections)
    .where(eq(ssoConnections.enabled, true))
    .orderBy(asc(ssoConnections.name))
    .all();
}

/**
 * GET /auth/sso/{connection}/authorize: the provider's URL with fresh state, nonce and PKCE challenge, and a secret
 * the route puts in a short-lived HttpOnly cookie: the callback must present it, so a callback URL carried to another
 * browser (login CSRF, RFC 9700 §4.7) signs nobody in there. Only its hash is stored with the flow.
 */
export async function authorize({ ctx, input }: { ctx: SsoFlowCtx; input: { connection: string } }) {
  const c = ctx.platformDb.select().from(ssoConnections).where(eq(ssoConnections.name, input.connection)).get();
  if (!c || !c.enabled) throw new NotFoundError(`SSO connection '${input.connection}' not found`);
  const config = await clientOf(ctx, c);
  const checks = newChecks();
  const binding = randomSecret();
  const now = ctx.clock.now();
  ctx.platformDb.delete(ssoFlows).where(lt(ssoFlows.expiresAt, now)).run();
  ctx.platformDb
    .insert(ssoFlows)
    .values({ ...checks, browserHash: sha256(binding), connectionId: c.id, expiresAt: now + FLOW_TTL_MS })
    .run();
  const location = (await authorizationUrl(config, checks, callbackUri(ctx), JSON.parse(c.scopes))).href;
  return { location, binding };
}

/**
 * Whether the provider vouches for the e-mail: `email_verified: true`; or, on a connection that trusts the e-mail
 * claim (Entra ID never sends email_verified), no denial: neither `email_verified: false` nor Entra's `xms_edov: false`.
 */
function emailVouched(c: ConnectionRow, id: { emailVerified: boolean | null; domainOwnerVerified: boolean | null }) {
  if (id.emailVerified === true) return true;
  if (!c.trustEmailClaim || id.emailVerified === false) return false;
  return id.domainOwnerVerified !== false;
}

/** The platform user of a verified e-mail; with autoProvision a new one without any role or membership. */
async function userFor(ctx: SsoFlowCtx, c: ConnectionRow, email: string): Promise<UserRow> {
  const found = ctx.platformDb.select().from(users).where(eq(users.email, email)).get();
  if (found) return found;
  if (!c.autoProvision) throw new ForbiddenError(`No account for ${email}; ask an administrator to create one`);
  const now = new Date(ctx.clock.now()).toISOString();
  const row: UserRow = {
    id: crypto.randomUUID(),
    email,
    // Unusable until a password reset: SSO users sign in through their provider.
    passwordHash: await hashPassword(randomSecret()),
    firstName: email.split("@")[0] as string,
    lastName: null,
    globalRole: null,
    active: true,
    aiQuota: null,
    createdAt: now,
    updatedAt: now,
  };
  ctx.platformDb.insert(users).values(row).run();
  return row;
}

/**
 * GET /auth/sso/callback: the flow of `state` is taken (once) if this browser holds its binding cookie; openid-client
 * checks state, issuer, audience, expiry, nonce and PKCE, the signature is checked against the provider's keys; then
 * a verified e-mail of an allowed domain names the user. No claim ever becomes a role or a membership. Answers where
 * the browser goes with its one-time code.
 */
export async function callback({
  ctx,
  input,
}: {
  ctx: SsoFlowCtx;
  input: { query: string; state?: string; binding?: string };
}) {
  const now = ctx.clock.now();
  let foreign = false;
  const flow = input.state
    ? immediate(ctx.platformDb.$client, () => {
        const f = ctx.platformDb
          .select()
          .from(ssoFlows)
          .where(eq(ssoFlows.state, input.state as string))
          .get();
        // Another browser's callback leaves the flow to the browser that began it.
        foreign = !!f && (!input.binding || !f.browserHash || sha256(input.binding) !== f.browserHash);
        if (f && !foreign) ctx.platformDb.delete(ssoFlows).where(eq(ssoFlows.state, f.state)).run();
        return f;
      })
    : undefined;
  if (!flow || flow.expiresAt < now) throw new BadRequestError("Unknown or expired SSO state");
  if (foreign) throw new ForbiddenError("This sign-in was not started in this browser; start it again");
  const c = ctx.platformDb.select().from(ssoConnections).where(eq(ssoConnections.id, flow.connectionId)).get();
  if (!c || !c.enabled) throw new NotFoundError("SSO connection not found");
  let identity: Awaited<ReturnType<typeof redeemCode>>;
  try {
    const config = await clientOf(ctx, c);
    const url = new URL(`${callbackUri(ctx)}?${input.query}`);
    identity = await redeemCode(config, url, flow, ctx.sso.allowedPrivateHosts);
  } catch (e) {
    throw new UnauthorizedError(`SSO sign-in failed: ${oidcErrorText(e)}`);
  }
  if (!identity.email || !emailVouched(c, identity))
    throw new ForbiddenError("The provider did not vouch for a verified e-mail");
  const domain = identity.email.split("@")[1] ?? "";
  if (!(JSON.parse(c.allowedDomains) as string[]).includes(domain))
    throw new ForbiddenError(`E-mail domain '${domain}' is not allowed on this connection`);
  const user = await userFor(ctx, c, identity.email);
  if (!user.active) throw new ForbiddenError("This account is deactivated");
  const code = randomSecret();
  ctx.platformDb.delete(ssoCodes).where(lt(ssoCodes.expiresAt, now)).run();
  ctx.platformDb
    .insert(ssoCodes)
    .values({ codeHash: sha256(code), userId: user.id, expiresAt: now + CODE_TTL_MS })
    .run();
  const to = new URL(ctx.sso.returnUrl);
  to.searchParams.set("code", code);
  return { location: to.href };
}

/** POST /auth/sso/exchange: the one-time code (once, while fresh) for the usual login answer and a new session. */
export function exchange({
  ctx,
  input,
}: {
  ctx: SsoFlowCtx;
  input: { code: string; ip: string; userAgent: string | null };
}) {
  const hash = sha256(input.code);
  const row = immediate(ctx.platformDb.$client, () => {
    const r = ctx.platformDb.select().from(ssoCodes).where(eq(ssoCodes.codeHash, hash)).get();
    if (r)
      ctx.platformDb
        .delete(ssoCodes)
        .where(and(eq(ssoCodes.codeHash, hash)))
        .run();
    return r;
  });
  if (!row || row.expiresAt < ctx.clock.now()) throw new UnauthorizedError("Invalid or expired SSO code");
  const user = ctx.platformDb.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user || !user.active) throw new ForbiddenError("This account is deactivated");
  const sid = createSession(ctx, user.id, input.ip, input.userAgent);
  return sessionResponse(ctx, user, sid, null, issueRefreshToken(ctx, sid));
}
