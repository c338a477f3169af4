import type { Context } from "hono";
import proxyaddr from "proxy-addr";
import type { AppEnv } from "../env";

/**
 * TRUST_PROXY, parsed once at start: `false` (the socket's address), a number of proxy hops in front of the service
 * (`true` = 1), or the addresses/CIDRs of the trusted proxies (proxy-addr's names loopback, linklocal, uniquelocal
 * included).
 */
export type TrustProxy = false | { hops: number } | { proxies: string[] };

/** Reads the TRUST_PROXY setting; throws on a value proxy-addr would not understand, so a typo stops the start. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? "").trim();
  if (v === "" || v === "false" || v === "0") return false;
  if (v === "true") return { hops: 1 };
  if (/^\d+$/.test(v)) return { hops: Number(v) };
  const proxies = v
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  proxyaddr.compile(proxies);
  return { proxies };
}

/** The caller's address as resolved once per request (app.ts stores it in `c.get("clientIp")`). */
export function clientIp(c: Context<AppEnv>): string {
  return c.get("clientIp");
}

/**
 * Builds the per-request resolver. With a trusted proxy, X-Forwarded-For is walked from the right (proxy-addr): each
 * hop is skipped only while the address that handed the request on is trusted, so the answer is the address the
 * outermost trusted proxy saw; entries a client wrote to the left of it are never taken.
 */
export function clientIpResolver(trust: TrustProxy): (c: Context<AppEnv>) => string {
  const trustFn =
    trust === false
      ? null
      : "hops" in trust
        ? (_addr: string, hop: number) => hop < trust.hops
        : proxyaddr.compile(trust.proxies);
  return (c) => {
    const env = c.env as AppEnv["Bindings"] | undefined;
    const socket = env?.server?.requestIP(c.req.raw)?.address ?? env?.ip ?? "unknown";
    if (!trustFn) return socket;
    const xff = c.req.header("x-forwarded-for");
    if (!xff) return socket;
    const req = {
      headers: { "x-forwarded-for": xff },
      socket: { remoteAddress: socket },
      connection: { remoteAddress: socket },
    };
    return proxyaddr(req, trustFn);
  };
}
