import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ForbiddenError } from "../../services/errors";
import { isAdmin, isManager, isModeler, type Actor } from "../../services/context";

function guard(label: string, allowed: (a: Actor) => boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!allowed(c.get("ctx").actor)) throw new ForbiddenError(`This operation requires the ${label} role`);
    await next();
  });
}

/** Role predicates of the spec; SUPER_ADMIN passes all of them, an API key none. */
export const requireAdmin = guard("ADMIN", isAdmin);
export const requireManager = guard("MANAGER or ADMIN", isManager);
export const requireModeler = guard("MODELER or ADMIN", isModeler);
export const requireManagerOrModeler = guard("MANAGER, MODELER or ADMIN", (a) => isManager(a) || isModeler(a));
/** Any authenticated user or key of the tenant (tenantAuth already ran); listed so every route names its rule. */
export const requireAuth = guard("authenticated", () => true);
