import { checkDestination, DestinationRefused, type Resolver, systemResolver } from "./address-policy";

/** What a caller lets through: internal hosts it trusts, hops, time. */
export interface OutboundPolicy {
  /** Host names or addresses allowed although internal ("*" = every internal address; metadata never). */
  allowedPrivate?: readonly string[];
  /** Redirects followed, each re-checked (default 5); 0 returns a redirect response as it is. */
  maxRedirects?: number;
  /** Time for the whole call, redirects included, until the body is read (default 10 s). */
  timeoutMs?: number;
  resolver?: Resolver;
  /** The transport (tests); it receives the pinned URL. */
  fetchImpl?: typeof fetch;
}

const tlsOf = (init: RequestInit) => (init as { tls?: Record<string, unknown> }).tls;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Headers that carry credentials of the first origin: not sent on to another one.
const ORIGIN_BOUND = ["authorization", "cookie", "proxy-authorization"];

/**
 * Fetches `url` under the SSRF policy: only http(s); the host is resolved once and every address checked; the
 * connection goes to the checked address (Host header and TLS server name keep the original name, so no second
 * lookup can rebind it); redirects are followed by hand, each hop checked again. Refusals throw DestinationRefused.
 */
export async function safeFetch(
  url: string | URL,
  init: RequestInit = {},
  policy: OutboundPolicy = {},
): Promise<Response> {
  const maxRedirects = policy.maxRedirects ?? 5;
  const timeout = AbortSignal.timeout(policy.timeoutMs ?? 10_000);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const doFetch = policy.fetchImpl ?? fetch;
  let current = new URL(url);
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  for (let hop = 0; ; hop++) {
    if (current.protocol !== "http:" && current.protocol !== "https:")
      throw new DestinationRefused(`outbound call refuses protocol ${current.protocol}`);
    const addresses = await checkDestination(
      current.hostname,
      policy.allowedPrivate ?? [],
      policy.resolver ?? systemResolver,
    );
    // Prefer IPv4 as most stacks do; every address was checked above.
    const ip = addresses.find((a) => !a.includes(":")) ?? addresses[0];
    const pinned = new URL(current);
    pinned.hostname = ip.includes(":") ? `[${ip}]` : ip;
    const hopHeaders = new Headers(headers);
    hopHeaders.set("host", current.host);
    const res = await doFetch(pinned, {
      ...init,
      method,
      body,
      headers: hopHeaders,
      redirect: "manual",
      signal,
      // TLS checks the certificate against the original name (and sends it as SNI), not the pinned address.
      ...(current.protocol === "https:"
        ? { tls: { ...tlsOf(init), serverName: current.hostname.replace(/^\[|\]$/g, "") } }
        : {}),
    } as RequestInit);
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || !location || maxRedirects === 0) return res;
    if (hop >= maxRedirects)
      throw new DestinationRefused(`more than ${maxRedirects} redirects from ${new URL(url).host}`);
    await res.body?.cancel();
    const next = new URL(location, current);
    if (next.origin !== current.origin) for (const h of ORIGIN_BOUND) headers.delete(h);
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = method === "HEAD" ? "HEAD" : "GET";
      body = undefined;
      headers.delete("content-type");
      headers.delete("content-length");
    }
    current = next;
  }
}
