import type { Platform } from "../platform/platform";
import type { Actor, RequestCtx } from "../services/context";
import type { AccessClaims } from "../services/auth/tokens";

/** What authentication found on a request that carries a user token. */
export interface AuthInfo {
  claims: AccessClaims;
  actor: Actor;
}

export type AppEnv = {
  Bindings: { ip?: string; server?: { requestIP(req: Request): { address: string } | null } };
  Variables: { platform: Platform; requestId: string; auth: AuthInfo; ctx: RequestCtx };
};
