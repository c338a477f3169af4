import type { Context, Next } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../env";

/** An X-Request-Id we take from the caller: short and plain, so it cannot forge or break a log line. */
const SAFE_ID = /^[\w.:-]{1,128}$/;

export function requestIdOf(header: string | undefined): string {
  return header && SAFE_ID.test(header) ? header : crypto.randomUUID();
}

/** The route pattern that answered (`/api/a/tasks/:id`), never the raw path: bounded label values for metrics. */
function routeOf(c: Context<AppEnv>): string {
  const handler = matchedRoutes(c)
    .filter((r) => r.method !== "ALL")
    .at(-1);
  return handler?.path ?? "unmatched";
}

/** Who made the request, as far as authentication got: a user id, an API key id, or nobody. */
function actorOf(c: Context<AppEnv>): string | undefined {
  const actor = c.get("ctx")?.actor;
  if (actor) return actor.kind === "apiKey" ? `apiKey:${actor.apiKeyId}` : `user:${actor.userId}`;
  const sub = c.get("auth")?.claims.sub;
  return sub ? `user:${sub}` : undefined;
}

/**
 * One access log line and one histogram sample per request, after the answer is built (errors included: onError has
 * run by then). It names the fields it writes, so no header, body or query string (which may hold a secret) is logged.
 */
// `c.get` rather than `c.var`: Hono builds a fresh object of every variable on each `c.var` read.
export async function observeRequest(c: Context<AppEnv>, next: Next): Promise<void> {
  const obs = c.get("deps").observability;
  const t0 = performance.now();
  await next();
  const requestId = c.get("requestId");
  c.header("X-Request-Id", requestId);
  if (!obs) return;
  const seconds = (performance.now() - t0) / 1000;
  const route = routeOf(c);
  const status = c.res.status;
  obs.recordRequest(c.req.method, route, status, seconds);
  obs.accessLog({
    requestId,
    method: c.req.method,
    route,
    path: c.req.path,
    status,
    durationMs: Math.round(seconds * 10_000) / 10,
    tenant: c.get("ctx")?.tenant.id,
    actor: actorOf(c),
    ip: c.get("clientIp"),
  });
}
