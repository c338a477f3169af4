import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { clientIp } from "../../middleware/client-ip";
import { authorize, callback, enabledConnections, exchange, FLOW_TTL_MS } from "../../../services/auth-sso/flow";
import { LoginResponseSchema } from "../auth/schema";

const redirect = { 302: { description: "Redirect (Location header)" } };

const connectionsRoute = createRoute({
  method: "get",
  path: "/auth/sso/connections",
  tags: ["auth"],
  security: [],
  summary: "Names of the enabled SSO connections, for a login page's buttons (no token needed)",
  responses: {
    200: {
      description: "Connections",
      ...json(z.array(z.object({ name: z.string() })).openapi("SsoConnectionNames")),
    },
    ...errorResponses,
  },
});
const authorizeRoute = createRoute({
  method: "get",
  path: "/auth/sso/{connection}/authorize",
  tags: ["auth"],
  security: [],
  summary: "Redirect to the provider with state, nonce and PKCE (no token needed)",
  request: { params: z.object({ connection: z.string().openapi({ param: { name: "connection", in: "path" } }) }) },
  responses: { ...redirect, ...errorResponses },
});
const callbackRoute = createRoute({
  method: "get",
  path: "/auth/sso/callback",
  tags: ["auth"],
  security: [],
  summary: "The provider's answer: validated, then a redirect to the frontend with a one-time code",
  request: { query: z.object({ state: z.string().optional(), code: z.string().optional() }).passthrough() },
  responses: { ...redirect, ...errorResponses },
});
const exchangeRoute = createRoute({
  method: "post",
  path: "/auth/sso/exchange",
  tags: ["auth"],
  security: [],
  summary: "The one-time code for the usual login answer (single use, short-lived)",
  request: {
    body: { ...json(z.object({ code: z.string().min(1).max(200) }).openapi("SsoExchangeRequest")), required: true },
  },
  responses: { 200: { description: "Token pair", ...json(LoginResponseSchema) }, ...errorResponses },
});

/** The browser-binding cookie of a sign-in: HttpOnly, SameSite=Lax (sent on the provider's top-level redirect back). */
const BINDING_COOKIE = "pms_sso_binding";
function bindingCookieOptions(publicUrl: string) {
  const u = new URL(publicUrl);
  return {
    path: `${u.pathname.replace(/\/$/, "")}/api/auth/sso`,
    httpOnly: true,
    sameSite: "Lax" as const,
    secure: u.protocol === "https:",
  };
}
const cookieOptions = (c: Context) => bindingCookieOptions(platformCtx(c).sso.publicUrl);

/** /auth/sso/** */
export function authSsoRouter() {
  const r = createRouter();
  r.openapi(connectionsRoute, (c) => c.json(enabledConnections({ ctx: platformCtx(c) }), 200));
  r.openapi(authorizeRoute, async (c) => {
    const { location, binding } = await authorize({ ctx: platformCtx(c), input: c.req.valid("param") });
    setCookie(c, BINDING_COOKIE, binding, { ...cookieOptions(c), maxAge: FLOW_TTL_MS / 1000 });
    return c.redirect(location, 302);
  });
  r.openapi(callbackRoute, async (c) => {
    const query = new URL(c.req.url).search.replace(/^\?/, "");
    const binding = getCookie(c, BINDING_COOKIE);
    const input = { query, state: c.req.valid("query").state, binding };
    const { location } = await callback({ ctx: platformCtx(c), input });
    deleteCookie(c, BINDING_COOKIE, cookieOptions(c));
    return c.redirect(location, 302);
  });
  r.openapi(exchangeRoute, async (c) =>
    c.json(
      await exchange({
        ctx: platformCtx(c),
        input: { code: c.req.valid("json").code, ip: clientIp(c), userAgent: c.req.header("user-agent") ?? null },
      }),
      200,
    ),
  );
  return r;
}
