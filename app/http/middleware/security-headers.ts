import type { MiddlewareHandler } from "hono";

/**
 * The console's policy: scripts, styles, images, fonts and API calls from the service's own origin only, never an
 * inline script or eval; never framed. Inline style attributes stay allowed: the diagram editors position their
 * overlays with them, and a style cannot run code.
 */
export const HTML_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Browser security headers: `nosniff` on every answer (a browser never guesses a script out of JSON or an upload),
 * no framing and no referrer anywhere, and the CSP above on every HTML answer. An answer that set its own CSP (an
 * attachment served with `sandbox`) keeps it.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const h = c.res.headers;
  h.set("X-Content-Type-Options", "nosniff");
  h.set("X-Frame-Options", "DENY");
  h.set("Referrer-Policy", "no-referrer");
  if (!h.has("Content-Security-Policy") && /^text\/html/i.test(h.get("content-type") ?? ""))
    h.set("Content-Security-Policy", HTML_CSP);
};
