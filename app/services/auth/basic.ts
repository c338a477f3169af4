import type { TenantRecord } from "../../../tenants/tenant-directory";
import type { Clock } from "../clock";
import { TENANT_ROLES, type Actor, type PlatformCtx, type TenantRole } from "../context";
import { UnauthorizedError } from "../errors";
import { checkCredentials, type LoginCtx } from "./login";
import { rolesIn } from "./sessions";
import { normalizeSlug } from "./select-tenant";
import { prepared } from "../prepared";
import { usableTenant } from "./usable-tenant";
import { keyedDigest, VerifiedCredentials } from "./verified-credentials";

export type BasicAuthCtx = LoginCtx & PlatformCtx<"revocations">;

/** Who an HTTP Basic request is: a user, and the tenant named by X-Tenant-ID (null: no header, the SA case). */
export interface BasicIdentity {
  actor: Actor;
  tenant: TenantRecord | null;
}

/**
 * How long a verified Basic credential is trusted without use before the password is hashed again; each request
 * extends it (revocations, a changed password and the tenant's status are still checked at every request).
 */
export const BASIC_CACHE_MS = 5 * 60_000;
/** At most this many verified Basic credentials are remembered. */
export const BASIC_CACHE_KEPT = 10_000;

/**
 * What is remembered of a verified credential: who it is, and a keyed digest of the password hash it was checked
 * against (not the hash itself, which a heap dump would hand to an offline cracker).
 */
interface Verified {
  identity: BasicIdentity;
  passwordDigest: string;
}

/** A keyed digest of a stored password hash, under this process's random key: comparable, not crackable offline. */
const digestOf = keyedDigest();

function parseBasic(header: string | undefined): { email: string; password: string } {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!m) throw new UnauthorizedError("HTTP Basic credentials (e-mail and password) are required");
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) throw new UnauthorizedError("Malformed HTTP Basic credentials");
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Verifies MCP's HTTP Basic credential (spec, Tenant selection rule 4): the password is checked by the login's own
 * `checkCredentials` (same limiter, failures counted), then the membership of the tenant named by X-Tenant-ID — a
 * slug the user is not a member of does not authenticate, and counts as a failed attempt. A verified credential is
 * remembered while in use (BASIC_CACHE_MS without a request forgets it) in the memory of verified credentials (keyed by a digest, never the password itself),
 * so that a session's every request does not hash a password nor spend the login limiter; a revocation (deactivation,
 * removed membership, changed role) or a tenant no longer active still refuses the next request, through the same
 * view bearer tokens consult.
 */
export class BasicAuthenticator {
  private readonly verified: VerifiedCredentials<Verified>;

  /** `clock`: the one the ctx of `authenticate` carries (the service's), by which remembered credentials expire. */
  constructor(clock: Clock) {
    this.verified = new VerifiedCredentials({
      ttlMs: BASIC_CACHE_MS,
      slide: true,
      maxEntries: BASIC_CACHE_KEPT,
      clock,
      subjectOf: (v) => v.identity.actor.userId ?? "",
    });
  }

  async authenticate(
    ctx: BasicAuthCtx,
    input: { authorization: string | undefined; tenantSlug: string | undefined; ip: string },
  ): Promise<BasicIdentity> {
    const slug = input.tenantSlug?.trim() ? normalizeSlug(input.tenantSlug) : null;
    // The credential is the header with the tenant it names: the same password for another tenant is verified anew.
    const credential = `${input.authorization ?? ""}\n${slug ?? ""}`;
    const hit = this.verified.get(credential);
    if (hit) {
      if (this.stillHolds(ctx, hit)) return hit.identity;
      this.verified.forget(credential);
    }
    const verified = await this.verify(ctx, input.authorization, slug, input.ip);
    this.verified.remember(credential, verified);
    return verified.identity;
  }

  /**
   * A remembered credential holds while its user keeps the password it was checked against (a changed or reset
   * password refuses the old one at the next request), is not revoked, and its tenant is active.
   */
  private stillHolds(ctx: BasicAuthCtx, { identity: id, passwordDigest }: Verified): boolean {
    // A statement of bun:sqlite itself: on every request of a session, drizzle's prepared query cost about as much
    // again as the read.
    const current = prepared(ctx.platformDb, "basicPasswordHash", () =>
      ctx.platformDb.$client.query<{ password_hash: string }, [string]>("SELECT password_hash FROM users WHERE id = ?"),
    ).get(id.actor.userId ?? "");
    if (!current || digestOf(current.password_hash) !== passwordDigest) return false;
    const roles = [...id.actor.tenantRoles, ...(id.actor.isSuperAdmin ? ["SUPER_ADMIN"] : [])];
    const claims = { sub: id.actor.userId!, sid: "", tenant: id.tenant?.id, roles };
    return (
      ctx.revocations.refusal(claims) === null && (!id.tenant || ctx.tenants.get(id.tenant.id)?.status === "ACTIVE")
    );
  }

  private async verify(
    ctx: BasicAuthCtx,
    header: string | undefined,
    slug: string | null,
    ip: string,
  ): Promise<Verified> {
    const { email, password } = parseBasic(header);
    const user = await checkCredentials(ctx, email, password, ip, slug ? `tenant:${slug}` : `ip:${ip}`);
    const isSuperAdmin = user.globalRole === "SUPER_ADMIN";
    let tenant: TenantRecord | null = null;
    let tenantRoles: TenantRole[] = [];
    if (slug) {
      const named = ctx.tenants.bySlug(slug);
      const roles = named ? rolesIn(ctx, user, named.id) : null;
      if (!named || !roles) {
        ctx.limiters.loginAccount.fail(`${user.email}\n${ip}`);
        ctx.limiters.loginIpFailures.fail(ip);
        throw new UnauthorizedError(`You are not a member of tenant '${slug}'`);
      }
      tenant = usableTenant(ctx, named.id);
      tenantRoles = roles.filter((r): r is TenantRole => TENANT_ROLES.includes(r as TenantRole));
    }
    const actor: Actor = {
      kind: "user",
      userId: user.id,
      email: user.email,
      isSuperAdmin,
      tenantRoles,
      apiKeyId: null,
      channel: "MCP",
    };
    return { identity: { actor, tenant }, passwordDigest: digestOf(user.passwordHash) };
  }
}
