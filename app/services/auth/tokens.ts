import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { createHash, randomBytes } from "node:crypto";

export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** Claims of our access token: subject, session id, selected tenant (id and slug) and the roles valid there. */
export interface AccessClaims {
  sub: string;
  sid: string;
  tenant?: string;
  tenantSlug?: string;
  roles: string[];
  exp?: number;
}

/** The `typ` header of our access tokens (RFC 9068 names access tokens `at+jwt`); a token of another type is refused. */
export const ACCESS_TOKEN_TYPE = "at+jwt";

/**
 * Signs and verifies access tokens (RFC 8725): the algorithm is pinned to HS256 (`alg: none` and any other are
 * rejected), and `typ`, `exp` and `iat` are required, so a correctly signed token without an expiry never passes.
 */
export class TokenService {
  private readonly key: Uint8Array;
  /** Verified tokens keyed by their text: verification is pure, so repeating it for the same token is wasted work. */
  private readonly verified = new Map<string, AccessClaims>();

  constructor(
    secret: string,
    private readonly now: () => number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: Omit<AccessClaims, "exp">): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    const body: Record<string, unknown> = { sid: claims.sid, roles: claims.roles };
    if (claims.tenant) {
      body.tenant = claims.tenant;
      body.tenantSlug = claims.tenantSlug;
    }
    return new SignJWT(body)
      .setProtectedHeader({ alg: "HS256", typ: ACCESS_TOKEN_TYPE })
      .setSubject(claims.sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** Returns the claims of a valid, unexpired token, or null. */
  async verify(token: string): Promise<AccessClaims | null> {
    const nowSec = Math.floor(this.now() / 1000);
    const hit = this.verified.get(token);
    if (hit) {
      if ((hit.exp ?? 0) > nowSec) return hit;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ["HS256"],
        typ: ACCESS_TOKEN_TYPE,
        requiredClaims: ["exp", "iat", "sub"],
        currentDate: new Date(this.now()),
      });
      if (typeof payload.iat !== "number" || payload.iat * 1000 > this.now() + 60_000) return null;
      if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || !Array.isArray(payload.roles))
        return null;
      const claims: AccessClaims = {
        sub: payload.sub,
        sid: payload.sid,
        tenant: typeof payload.tenant === "string" ? payload.tenant : undefined,
        tenantSlug: typeof payload.tenantSlug === "string" ? payload.tenantSlug : undefined,
        roles: payload.roles.filter((r): r is string => typeof r === "string"),
        exp: payload.exp,
      };
      if (this.verified.size > 10_000) this.verified.clear();
      this.verified.set(token, claims);
      return claims;
    } catch (e) {
      if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return null;
      throw e;
    }
  }
}

/** A random opaque secret (refresh tokens, reset tokens, API keys). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** SHA-256 hex digest: how high-entropy secrets are stored. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
