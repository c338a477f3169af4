import * as oidc from "openid-client";
import { verifyIdTokenSignature } from "./oidc-keys";
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
  /** `email_verified` as sent; null when the provider does not send it (Microsoft Entra ID never does). */
  emailVerified: boolean | null;
  /** Entra's `xms_edov` (the e-mail's domain is verified by the tenant's owner); null when absent. */
  domainOwnerVerified: boolean | null;
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

const flag = (v: unknown) => (v === true || v === "true" ? true : v === false || v === "false" ? false : null);

/**
 * Redeems the code of `callbackUrl`: openid-client checks state, the issuer, audience, expiry and nonce, and the PKCE
 * verifier is sent; the ID token's signature is checked here against the provider's JWKS (openid-client would skip
 * it). Any mismatch throws.
 */
export async function redeemCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: OidcChecks,
  allowedPrivate: readonly string[],
): Promise<OidcIdentity> {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims || !tokens.id_token) throw new Error("the provider returned no ID token");
  const jwksUri = config.serverMetadata().jwks_uri;
  if (!jwksUri) throw new Error("the provider publishes no jwks_uri to check the ID token's signature");
  await verifyIdTokenSignature(tokens.id_token, { jwksUri, allowedPrivate });
  let info: Record<string, unknown> = claims;
  if (claims.email === undefined) info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  return {
    subject: claims.sub,
    email: typeof info.email === "string" ? info.email.toLowerCase() : null,
    emailVerified: flag(info.email_verified),
    domainOwnerVerified: flag(info.xms_edov),
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
