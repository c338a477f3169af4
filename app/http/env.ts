import type { Clock } from "../services/clock";
import type { TrustProxy } from "./middleware/client-ip";
import type { Actor, PlatformPorts, TenantCtx, WithTenantCtx } from "../services/context";
import type { AccessClaims } from "../services/auth/tokens";
import type { Logger } from "pino";

/** What authentication found on a request that carries a user token. */
export interface AuthInfo {
  claims: AccessClaims;
  actor: Actor;
}

/** One access log line: fixed fields only, none of which can hold a secret (no header, body or query string). */
export interface AccessLine {
  requestId: string;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  tenant?: string;
  actor?: string;
  ip?: string;
}

/** Logs, metrics and readiness as the HTTP layer sees them (built by the platform; absent = all off). */
export interface HttpObservability {
  logger: Logger;
  /** Writes one access log line (the logger's format, msg "request"). */
  accessLog(line: AccessLine): void;
  recordRequest(method: string, route: string, status: number, seconds: number): void;
  metricsText(): Promise<string>;
  metricsContentType: string;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  readiness(): { ready: boolean; phase: string; checks: Record<string, string> };
}

/** What the HTTP layer is built from: the ports, the one tenant-ctx assembler, the clock and the proxy setting. */
export interface HttpDeps {
  ports: PlatformPorts;
  /** Runs a request with the tenant's ctx; its database handle stays leased until the request ends. */
  withTenantCtx: WithTenantCtx;
  clock: Clock;
  /** Which proxies may name the client in X-Forwarded-For (TRUST_PROXY). */
  trustProxy: TrustProxy;
  observability?: HttpObservability;
}

export type AppEnv = {
  Bindings: { ip?: string; server?: { requestIP(req: Request): { address: string } | null } };
  Variables: {
    /** Only the middleware and `platformCtx` read these two; routes get a built ctx. */
    deps: HttpDeps;
    requestId: string;
    clientIp: string;
    auth: AuthInfo;
    ctx: TenantCtx;
  };
};
