import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import type { Actor } from "../../services/context";
import { BadRequestError, UnauthorizedError } from "../../services/errors";
import { usableTenant } from "../../services/auth/usable-tenant";
import { authenticateApiKey } from "../../services/api-keys/authenticate";
import { parseScopes, scopeForMethod } from "../../services/api-keys/scopes";
import { authenticateBearer } from "./user-auth";
import { runnerActor, runnerTokenOf } from "./runner-token";

/**
 * Authenticates every /a/** request (API key or bearer token with a selected tenant), then checks the tenant is
 * usable and leases its database handle for the request (closed after it when the cache is over its bound). API-key scope and rate limit are decided here, before any route or role check.
 */
export const tenantAuth = createMiddleware<AppEnv>(async (c, next) => {
  const { ports, withTenantCtx } = c.get("deps");
  const rawKey = c.req.header("x-api-key");
  let actor: Actor;
  let tenantId: string;
  const runnerToken = rawKey === undefined ? runnerTokenOf(c) : undefined;
  if (runnerToken !== undefined) ({ actor, tenantId } = runnerActor(c, runnerToken));
  else if (rawKey !== undefined) {
    const key = authenticateApiKey({ ctx: ports, input: { key: rawKey } });
    if (!key) throw new UnauthorizedError("Invalid API key");
    const scopes = parseScopes(key.scopes);
    const required = scopeForMethod(c.req.method);
    if (!scopes.has(required)) {
      const held = scopes.size ? [...scopes].join(", ") : "none";
      return c.json(
        {
          error: "Forbidden",
          message: `API key scopes [${held}] do not include '${required}', required for ${c.req.method}`,
        },
        403,
      );
    }
    if (!ports.limiters.apiKey.hit(key.id, key.rateLimitPerMinute)) {
      c.header("Retry-After", String(ports.limiters.apiKey.retryAfterSeconds(key.id)));
      return c.json(
        {
          error: "Too Many Requests",
          message: `API key limit of ${key.rateLimitPerMinute} requests per minute exceeded`,
        },
        429,
      );
    }
    tenantId = key.tenantId;
    actor = {
      kind: "apiKey",
      userId: null,
      email: null,
      isSuperAdmin: false,
      tenantRoles: [],
      apiKeyId: key.id,
      channel: "API_KEY",
    };
  } else {
    const auth = await authenticateBearer(c);
    if (!auth.claims.tenant) {
      throw new BadRequestError("No tenant selected: call POST /api/auth/select-tenant first");
    }
    c.set("auth", auth);
    tenantId = auth.claims.tenant;
    actor = auth.actor;
  }
  await withTenantCtx(usableTenant(ports, tenantId), actor, c.get("requestId"), async (ctx) => {
    c.set("ctx", ctx);
    await next();
  });
});
