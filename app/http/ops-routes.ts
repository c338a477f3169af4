import { createHash, timingSafeEqual } from "node:crypto";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { errorBody } from "./errors/error-body";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether the Authorization header carries exactly `token` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/**
 * The operator's routes outside /api: liveness (`/health`, the spec's), readiness (`/health/ready`: 503 while starting,
 * draining or when a shared database or the job executor is down) and Prometheus metrics (`/metrics`).
 */
export function registerOpsRoutes(app: OpenAPIHono<AppEnv>): void {
  app.get("/health", (c) => c.json({ status: "UP" }));
  app.get("/health/ready", (c) => {
    const obs = c.get("deps").observability;
    if (!obs) return c.json({ status: "UP" });
    const r = obs.readiness();
    return c.json({ status: r.ready ? "UP" : "DOWN", phase: r.phase, checks: r.checks }, r.ready ? 200 : 503);
  });
  app.get("/metrics", async (c) => {
    const obs = c.get("deps").observability;
    if (!obs) return c.json(errorBody(404, "Metrics are off", c.req.path), 404);
    if (obs.metricsToken && !bearerMatches(c.req.header("authorization"), obs.metricsToken)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return c.json(errorBody(401, "Metrics require the METRICS_TOKEN bearer token", c.req.path), 401);
    }
    return c.body(await obs.metricsText(), 200, { "content-type": obs.metricsContentType });
  });
}
