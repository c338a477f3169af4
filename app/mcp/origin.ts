const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * DNS-rebinding protection (MCP security guidance): a browser's Origin must be a local one (any port) or be listed in
 * MCP_ALLOWED_ORIGINS. A request without Origin (desktop clients, curl, the stdio proxy) is not a browser's and passes;
 * its credential is still checked.
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  const o = origin.trim().replace(/\/+$/, "").toLowerCase();
  if (allowed.includes(o) || allowed.includes("*")) return true;
  try {
    const url = new URL(o);
    return (url.protocol === "http:" || url.protocol === "https:") && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false; // "null" (sandboxed frames, file://) and anything unparseable
  }
}
