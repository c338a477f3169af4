import * as jose from "jose";
import { AnswerTooLarge, readCapped } from "./read-capped";
import { safeFetch } from "./safe-fetch";

/**
 * ID token signatures, checked against the provider's published keys (JWKS) whatever the transport: openid-client
 * trusts a token that came straight from the token endpoint over TLS without checking its signature, which lets a
 * provider-side forgery (a token naming the published `kid` but signed by another key) through, and plain http to
 * an internal provider has no TLS to lean on at all.
 *
 * Keys are cached per JWKS address for KEYS_TTL_MS. A token whose key is not in the cached set refetches it once
 * (key rotation); a callback never causes more than that one extra fetch, and concurrent refetches of one address
 * share a single request.
 */
export const KEYS_TTL_MS = 10 * 60_000;
const MAX_JWKS_BYTES = 256 * 1024;
const MAX_CACHED = 64;
/** Asymmetric algorithms only: an HS256 token "signed" with the client secret is refused. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

interface KeySet {
  keys: jose.JSONWebKeySet;
  fetchedAt: number;
}
const cache = new Map<string, KeySet>();
const inFlight = new Map<string, Promise<KeySet>>();

export interface KeySource {
  jwksUri: string;
  /** Internal hosts the provider may sit on (plain http is accepted only for these). */
  allowedPrivate: readonly string[];
}

async function download(src: KeySource): Promise<KeySet> {
  const url = new URL(src.jwksUri);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && src.allowedPrivate.includes(url.hostname)))
    throw new Error(`the provider's JWKS address ${url.origin} is neither https nor an allowed internal host`);
  const res = await safeFetch(
    url,
    { headers: { accept: "application/json" } },
    { allowedPrivate: src.allowedPrivate, maxRedirects: 0, timeoutMs: 10_000 },
  );
  if (!res.ok) throw new Error(`the provider's JWKS answered ${res.status}`);
  const text = await readCapped(res, MAX_JWKS_BYTES).catch((e) => {
    throw e instanceof AnswerTooLarge ? new Error("the provider's JWKS is too large") : e;
  });
  const keys = JSON.parse(text) as jose.JSONWebKeySet;
  if (!keys || !Array.isArray(keys.keys)) throw new Error("the provider's JWKS has no keys");
  const set = { keys, fetchedAt: Date.now() };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(src.jwksUri, set);
  return set;
}

function fetchKeys(src: KeySource): Promise<KeySet> {
  const pending = inFlight.get(src.jwksUri);
  if (pending) return pending;
  const p = download(src).finally(() => inFlight.delete(src.jwksUri));
  inFlight.set(src.jwksUri, p);
  return p;
}

/** Throws unless `idToken` carries a valid signature by a key of the provider's JWKS (refetched once if unknown). */
export async function verifyIdTokenSignature(idToken: string, src: KeySource): Promise<void> {
  const cached = cache.get(src.jwksUri);
  let set = cached && Date.now() - cached.fetchedAt < KEYS_TTL_MS ? cached : await fetchKeys(src);
  let refetched = set !== cached;
  for (;;) {
    try {
      await jose.compactVerify(idToken, jose.createLocalJWKSet(set.keys), { algorithms: ALGORITHMS });
      return;
    } catch (e) {
      // An unknown key may be a rotation: look at the provider's current keys once. A bad signature is final.
      if (e instanceof jose.errors.JWKSNoMatchingKey && !refetched) {
        set = await fetchKeys(src);
        refetched = true;
        continue;
      }
      if (e instanceof jose.errors.JWSSignatureVerificationFailed)
        throw new Error("the ID token's signature does not match the provider's published key");
      throw e;
    }
  }
}
