import * as oidc from "openid-client";
import { safeFetch } from "./safe-fetch";

/** An OIDC client of one connection; every request to the provider goes through the SSRF policy. */
export interface OidcClientSpec {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Internal hosts the provider may sit on (plain http is accepted only for these). */
  allowedPrivate: readonly string[];
}

/** What the callback learns: the provider's subject and e-mail (from the ID token, else userinfo). */
export interface OidcIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const fetchThroughPolicy =
  (allowed: readonly string[]): oidc.CustomFetch =>
  (url, options) =>
    safeFetch(url, options as RequestInit, { allowedPrivate: allowed, maxRedirects: 0 });

/** Discovers the provider (throws with the reason when the issuer does not answer as an OIDC provider). */
export async function discoverOidc(spec: OidcClientSpec): Promise<oidc.Configuration> {
  const url = new URL(spec.issuer);
  const insecure = url.protocol === "http:" && spec.allowedPrivate.includes(url.hostname);
  const config = await oidc.discovery(url, spec.clientId, spec.clientSecret, undefined, {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
    [oidc.customFetch]: fetchThroughPolicy(spec.allowedPrivate),
    timeout: 10,
  });
  config[oidc.customFetch] = fetchThroughPolicy(spec.allowedPrivate);
  return config;
}

/** Fresh state, nonce and PKCE verifier for one authorization. */
export function newChecks(): OidcChecks {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
}

export async function authorizationUrl(
  config: oidc.Configuration,
  checks: OidcChecks,
  redirectUri: string,
  scopes: string[],
): Promise<URL> {
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: ["openid", ...scopes.filter((s) => s !== "openid")].join(" "),
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: "S256",
  });
}

/**
 * Redeems the code of `callbackUrl`: openid-client checks state, the issuer, the ID token's signature, audience,
 * expiry and nonce, and the PKCE verifier is sent; any mismatch throws.
 */
export async function redeemCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: OidcChecks,
): Promise<OidcIdentity> {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("the provider returned no ID token");
  let info: Record<string, unknown> = claims;
  if (claims.email === undefined) info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  return {
    subject: claims.sub,
    email: typeof info.email === "string" ? info.email.toLowerCase() : null,
    emailVerified: info.email_verified === true,
  };
}

/** openid-client wraps the real reason (a refused address, the claim that failed) in causes: name them all. */
export function oidcErrorText(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e; c && parts.length < 5; c = (c as { cause?: unknown }).cause) {
    const { message, claim } = c as { message?: string; claim?: string };
    if (message && !parts.includes(message)) parts.push(message);
    if (claim) parts.push(`claim: ${claim}`);
  }
  return parts.join(": ") || String(e);
}
