import { createMiddleware } from "hono/factory";
import type { AppEnv, AuthInfo } from "../env";
import type { Context } from "hono";
import { BadRequestError, ForbiddenError, UnauthorizedError } from "../../services/errors";
import { normalizeSlug } from "../../services/auth/select-tenant";
import { TENANT_ROLES, type TenantRole } from "../../services/context";

/** Verifies the bearer token and applies the X-Tenant-ID rule; returns who is calling. */
export async function authenticateBearer(c: Context<AppEnv>): Promise<AuthInfo> {
  const header = c.req.header("authorization");
  if (!header?.startsWith("Bearer ")) throw new UnauthorizedError("Missing bearer token");
  const claims = await c.get("deps").ports.tokens.verify(header.slice(7).trim());
  if (!claims) throw new UnauthorizedError("Invalid or expired token");
  const revoked = c.get("deps").ports.revocations.refusal(claims);
  if (revoked) throw new UnauthorizedError(revoked);
  const headerTenant = c.req.header("x-tenant-id");
  if (headerTenant !== undefined && (!claims.tenantSlug || normalizeSlug(headerTenant) !== claims.tenantSlug)) {
    throw new BadRequestError(
      "X-Tenant-ID does not select a tenant: the tenant comes from the token. Call POST /api/auth/select-tenant to switch tenant.",
    );
  }
  const isSuperAdmin = claims.roles.includes("SUPER_ADMIN");
  return {
    claims,
    actor: {
      kind: "user",
      userId: claims.sub,
      email: null,
      isSuperAdmin,
      tenantRoles: claims.tenant
        ? (claims.roles.filter((r) => TENANT_ROLES.includes(r as TenantRole)) as TenantRole[])
        : [],
      apiKeyId: null,
      channel: "REST",
    },
  };
}

/** Any valid user token. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  c.set("auth", await authenticateBearer(c));
  await next();
});

/** Every /admin/** path: a valid token of a SUPER_ADMIN. */
export const requireSuperAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const auth = await authenticateBearer(c);
  if (!auth.actor.isSuperAdmin) throw new ForbiddenError("Platform administration requires SUPER_ADMIN");
  c.set("auth", auth);
  await next();
});
