import { and, eq } from "drizzle-orm";
import { memberships, users } from "../../../db/platform/schema";
import type { PlatformOrm } from "../../../tenants/tenant-directory";
import type { AccessClaims } from "./tokens";

const TENANT_ROLES = new Set(["ADMIN", "MODELER", "MANAGER", "USER"]);

interface UserAccess {
  active: boolean;
  superAdmin: boolean;
  /** tenant id -> role */
  roles: Map<string, string>;
}

/**
 * What a token may still claim, kept in memory so that a deactivation, a removed membership, a changed role or a
 * lost SUPER_ADMIN takes effect on the next request, while tokens are still never checked against storage per request
 * (spec: authentication). Filled from the platform database at the first request after start; the operations that
 * revoke tell it at once. A token that disagrees with the view makes it re-read that one user from the database
 * before refusing, so a write that did not tell the view can only delay a revocation, never refuse a valid token.
 * Logout is not here: it ends the session's refresh token; its access token lives until it expires (spec).
 */
export class AccessRevocations {
  private byUser: Map<string, UserAccess> | null = null;

  constructor(private readonly db: PlatformOrm) {}

  /** Why these claims no longer hold, or null when they do. */
  refusal(claims: AccessClaims): string | null {
    const why = this.check(this.view().get(claims.sub), claims);
    if (!why) return null;
    return this.check(this.reload(claims.sub), claims);
  }

  /** The platform tables changed for this user (deactivation, global role, a membership): re-read them. */
  userChanged(userId: string): void {
    if (this.byUser) this.reload(userId);
  }

  private check(u: UserAccess | undefined, claims: AccessClaims): string | null {
    if (!u) return "The user no longer exists";
    if (!u.active) return "The user has been deactivated";
    if (claims.roles.includes("SUPER_ADMIN") && !u.superAdmin) return "The user is no longer SUPER_ADMIN";
    if (!claims.tenant) return null;
    const claimed = claims.roles.filter((r) => TENANT_ROLES.has(r));
    const current = u.roles.get(claims.tenant);
    if (claimed.length === 0) return u.superAdmin ? null : "The membership in this tenant has been removed";
    if (current === undefined) return "The membership in this tenant has been removed";
    if (claimed.length !== 1 || claimed[0] !== current)
      return "The role in this tenant has changed: call POST /api/auth/select-tenant again";
    return null;
  }

  /** Reads the platform tables once (createPlatform calls it at start). */
  load(): void {
    this.view();
  }

  private view(): Map<string, UserAccess> {
    if (this.byUser) return this.byUser;
    const map = new Map<string, UserAccess>();
    for (const u of this.db.select().from(users).all())
      map.set(u.id, { active: u.active, superAdmin: u.globalRole === "SUPER_ADMIN", roles: new Map() });
    for (const m of this.db.select().from(memberships).all()) map.get(m.userId)?.roles.set(m.tenantId, m.role);
    this.byUser = map;
    return map;
  }

  private reload(userId: string): UserAccess | undefined {
    const map = this.view();
    const u = this.db.select().from(users).where(eq(users.id, userId)).get();
    if (!u) {
      map.delete(userId);
      return undefined;
    }
    const roles = new Map<string, string>();
    for (const m of this.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, userId)))
      .all())
      roles.set(m.tenantId, m.role);
    const access = { active: u.active, superAdmin: u.globalRole === "SUPER_ADMIN", roles };
    map.set(userId, access);
    return access;
  }
}
