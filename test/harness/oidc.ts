import http from "node:http";
import type { AddressInfo } from "node:net";
import * as jose from "jose";
import Provider from "oidc-provider";

/** An account's claims; `email_verified` may be left out (as Microsoft Entra ID does), other claims ride along. */
export interface OidcAccount {
  email: string;
  email_verified?: boolean;
  [claim: string]: unknown;
}

export interface TestOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Record<string, OidcAccount>;
  /** From now on ID tokens are signed by another RSA key under the published key's `kid` (a forged signature). */
  forge(): Promise<void>;
  /** From now on a new key (new `kid`) signs and is published: a key rotation. */
  rotate(): Promise<void>;
  /** Requests the service made for the provider's JWKS. */
  jwksFetches: number;
  close(): Promise<void>;
}

const rsaKey = async (kid: string) => {
  const { privateKey } = await jose.generateKeyPair("RS256", { extractable: true });
  return { ...(await jose.exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
};
const publicOf = ({ d, p, q, dp, dq, qi, ...pub }: jose.JWK) => pub;

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 with one confidential client and dev login screens. forge()
 * and rotate() swap in a provider with other signing keys (between sign-ins: a flow's sessions live in one provider).
 */
export async function startTestOidc(redirectUri: string, accounts: Record<string, OidcAccount>): Promise<TestOidc> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "pms";
  const clientSecret = "client-secret-0123456789-abcdefghij";
  const providerWith = (key: jose.JWK) =>
    new Provider(issuer, {
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }],
      claims: { openid: ["sub"], email: ["email", "email_verified", "xms_edov", "preferred_username", "tid"] },
      jwks: { keys: [key] },
      findAccount: async (_ctx: unknown, sub: string) =>
        accounts[sub] ? { accountId: sub, claims: async () => ({ sub, ...accounts[sub] }) } : undefined,
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
    }).callback();
  const signing = await rsaKey("key-1");
  let handler = providerWith(signing);
  // What /jwks publishes; null: the provider's own answer.
  let published: jose.JSONWebKeySet | null = null;
  const idp: TestOidc = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    jwksFetches: 0,
    async forge() {
      handler = providerWith(await rsaKey(signing.kid));
      published = { keys: [publicOf(signing)] };
    },
    async rotate() {
      handler = providerWith(await rsaKey(`key-${Date.now()}`));
      published = null;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/jwks")) {
      idp.jwksFetches++;
      if (published) {
        res.setHeader("content-type", "application/json");
        return res.end(JSON.stringify(published));
      }
    }
    handler(req, res);
  });
  return idp;
}

/**
 * A browser: follows redirects by hand, keeps cookies, sends requests for `appOrigin` to the service (`toApp`) and
 * the rest over the network, and fills the provider's login and consent forms as `login`. Stops at the first
 * redirect to `stopAt` and returns its URL.
 */
export async function browse(opts: {
  start: string;
  appOrigin: string;
  toApp(path: string, headers?: Record<string, string>): Promise<Response>;
  login: string;
  stopAt: string;
  /** The service's cookies of this browser (kept across calls to share a browser). */
  appJar?: Map<string, string>;
}): Promise<{ url: string; last: Response; appJar: Map<string, string> }> {
  const jar = new Map<string, string>();
  const appJar = opts.appJar ?? new Map<string, string>();
  const keep = (into: Map<string, string>, res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const kv = c.split(";")[0] as string;
      const [name, value] = [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)];
      if (value && !/max-age=0/i.test(c)) into.set(name, value);
      else into.delete(name);
    }
    return res;
  };
  const cookies = (from: Map<string, string>) => [...from].map(([k, v]) => `${k}=${v}`).join("; ");
  const go = async (url: string, init: RequestInit = {}) => {
    if (url.startsWith(opts.appOrigin))
      return keep(appJar, await opts.toApp(url.slice(opts.appOrigin.length), { cookie: cookies(appJar) }));
    const headers = new Headers(init.headers);
    headers.set("cookie", cookies(jar));
    return keep(jar, await fetch(url, { ...init, headers, redirect: "manual" }));
  };
  let url = opts.start;
  let res = await go(url);
  for (let hop = 0; hop < 20; hop++) {
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location") as string, url).href;
      if (url.startsWith(opts.stopAt)) return { url, last: res, appJar };
      res = await go(url);
      continue;
    }
    const html = res.status === 200 ? await res.text() : "";
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) return { url, last: res, appJar };
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
