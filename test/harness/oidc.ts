import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface OidcAccount {
  email: string;
  email_verified: boolean;
}

export interface TestOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Record<string, OidcAccount>;
  close(): Promise<void>;
}

/** A real OpenID provider (oidc-provider) on 127.0.0.1 with one confidential client and dev login screens. */
export async function startTestOidc(redirectUri: string, accounts: Record<string, OidcAccount>): Promise<TestOidc> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "pms";
  const clientSecret = "client-secret-0123456789-abcdefghij";
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    findAccount: async (_ctx: unknown, sub: string) =>
      accounts[sub] ? { accountId: sub, claims: async () => ({ sub, ...accounts[sub] }) } : undefined,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * A browser: follows redirects by hand, keeps cookies, sends requests for `appOrigin` to the service (`toApp`) and
 * the rest over the network, and fills the provider's login and consent forms as `login`. Stops at the first
 * redirect to `stopAt` and returns its URL.
 */
export async function browse(opts: {
  start: string;
  appOrigin: string;
  toApp(path: string): Promise<Response>;
  login: string;
  stopAt: string;
}): Promise<{ url: string; last: Response }> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    if (url.startsWith(opts.appOrigin)) return opts.toApp(url.slice(opts.appOrigin.length));
    const headers = new Headers(init.headers);
    headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const kv = c.split(";")[0] as string;
      jar.set(kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1));
    }
    return res;
  };
  let url = opts.start;
  let res = await go(url);
  for (let hop = 0; hop < 20; hop++) {
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location") as string, url).href;
      if (url.startsWith(opts.stopAt)) return { url, last: res };
      res = await go(url);
      continue;
    }
    const html = res.status === 200 ? await res.text() : "";
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) return { url, last: res };
    const body = new URLSearchParams();
    for (const m of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(m[0])?.[1];
      if (name) body.set(name, /value="([^"]*)"/.exec(m[0])?.[1] ?? "");
    }
    if (body.has("login")) {
      body.set("login", opts.login);
      body.set("password", "any");
    }
    url = new URL(action, url).href;
    res = await go(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }
  throw new Error("too many hops");
}
