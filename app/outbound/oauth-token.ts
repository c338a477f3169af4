import { DestinationRefused } from "./address-policy";
import { AnswerTooLarge, readCapped } from "./read-capped";
import { safeFetch } from "./safe-fetch";

/** One token request (RFC 6749 §4.4 client credentials or §6 refresh). */
export interface TokenRequest {
  tokenUrl: string;
  grant: "REFRESH_TOKEN" | "CLIENT_CREDENTIALS";
  clientId: string;
  clientSecret: string;
  refreshToken?: string | null;
  scope?: string | null;
  /** The caller's SSRF allowance, as for every outbound call. */
  allowedPrivate: readonly string[];
}

export interface TokenAnswer {
  accessToken: string;
  /** Seconds; absent in the answer means one hour (what both big providers issue). */
  expiresIn: number;
  /** Present when the endpoint rotates the refresh token (Microsoft does). */
  refreshToken?: string;
}

/**
 * The token endpoint refused. `revoked`: the grant itself is no longer valid (invalid_grant, invalid_client,
 * unauthorized_client): consent was withdrawn or the secret changed; retrying cannot help until an Admin fixes it.
 */
export class OAuthTokenError extends Error {
  constructor(
    message: string,
    readonly revoked: boolean,
  ) {
    super(message);
  }
}

const REVOKED = new Set(["invalid_grant", "invalid_client", "unauthorized_client"]);
/** A token answer is a few KB; anything far larger is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Asks the token endpoint for an access token under the outbound address policy (10 s, redirects re-checked). */
export async function requestAccessToken(req: TokenRequest): Promise<TokenAnswer> {
  const form = new URLSearchParams({ client_id: req.clientId, client_secret: req.clientSecret });
  if (req.grant === "REFRESH_TOKEN") {
    form.set("grant_type", "refresh_token");
    form.set("refresh_token", req.refreshToken ?? "");
  } else form.set("grant_type", "client_credentials");
  if (req.scope) form.set("scope", req.scope);
  let res: Response;
  try {
    res = await safeFetch(
      req.tokenUrl,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
      },
      { allowedPrivate: req.allowedPrivate, maxRedirects: 0 },
    );
  } catch (e) {
    if (e instanceof DestinationRefused) throw e;
    throw new OAuthTokenError(`the OAuth2 token endpoint could not be reached: ${(e as Error).message}`, false);
  }
  let text: string;
  try {
    text = await readCapped(res, MAX_ANSWER_BYTES);
  } catch (e) {
    if (e instanceof AnswerTooLarge)
      throw new OAuthTokenError(`the OAuth2 token endpoint answered more than ${MAX_ANSWER_BYTES} bytes`, false);
    throw e;
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: reported with the status below
  }
  if (!res.ok || typeof body.access_token !== "string") {
    const code = typeof body.error === "string" ? body.error : `HTTP ${res.status}`;
    const detail = typeof body.error_description === "string" ? `: ${body.error_description.slice(0, 300)}` : "";
    const revoked = REVOKED.has(code);
    const hint = revoked
      ? " (consent was revoked, or the client secret or refresh token is no longer valid; give new ones with PATCH)"
      : "";
    throw new OAuthTokenError(`the OAuth2 token endpoint refused: ${code}${detail}${hint}`, revoked);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600,
    ...(typeof body.refresh_token === "string" ? { refreshToken: body.refresh_token } : {}),
  };
}
