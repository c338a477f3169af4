import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { Actor } from "../../services/context";
import { ForbiddenError, UnauthorizedError } from "../../services/errors";
import { authenticateRunner } from "../../services/robot-runners/manage";

const PREFIX = "pmsr_";

/** The runner token of `Authorization: Bearer pmsr_…`, or undefined when the request carries another credential. */
export function runnerTokenOf(c: Context<AppEnv>): string | undefined {
  const h = c.req.header("authorization");
  const m = h ? /^Bearer\s+(\S+)$/i.exec(h) : null;
  return m?.[1].startsWith(PREFIX) ? m[1] : undefined;
}

// A runner reaches the external task API and reads CMS (robots are not bounded by confidentiality); nothing else.
const reachable = (method: string, path: string) =>
  path.startsWith("/api/a/robot-runners/external-task/") || (method === "GET" && path.startsWith("/api/a/cms/"));

/** Authenticates a robot runner (401 for a wrong or revoked token) as the tenant's robot actor. */
export function runnerActor(c: Context<AppEnv>, token: string): { actor: Actor; tenantId: string } {
  const runner = authenticateRunner({ ctx: c.get("deps").ports, input: { token } });
  if (!runner) throw new UnauthorizedError("Invalid or revoked robot runner token");
  if (!reachable(c.req.method, c.req.path))
    throw new ForbiddenError("A robot runner's token reaches only the external task API and CMS reading");
  return {
    tenantId: runner.tenantId,
    actor: {
      kind: "robot",
      userId: null,
      email: null,
      isSuperAdmin: false,
      tenantRoles: [],
      apiKeyId: null,
      runnerId: runner.id,
      channel: "ROBOT",
    },
  };
}
