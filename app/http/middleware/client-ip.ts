import type { Context } from "hono";
import type { AppEnv } from "../env";

/** The caller's address: the socket's, or X-Forwarded-For when TRUST_PROXY is set. */
export function clientIp(c: Context<AppEnv>): string {
  return c.var.clientIp;
}

/** Resolves the caller's address once per request (app.ts stores it in `c.var.clientIp`). */
export function resolveClientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = c.req.header("x-forwarded-for");
    if (fwd) return fwd.split(",")[0].trim();
  }
  const env = c.env as AppEnv["Bindings"] | undefined;
  return env?.server?.requestIP(c.req.raw)?.address ?? env?.ip ?? "unknown";
}
