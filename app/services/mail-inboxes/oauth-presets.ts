import { BadRequestError } from "../errors";

export type OAuthProvider = "MICROSOFT_365" | "GOOGLE" | "CUSTOM";
export type OAuthGrant = "REFRESH_TOKEN" | "CLIENT_CREDENTIALS";

/** What an Admin gives for an OAuth2 inbox; secrets are write-only. */
export interface OAuthInput {
  provider?: OAuthProvider;
  grant?: OAuthGrant;
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
  tokenUrl?: string;
  scope?: string;
  /** Microsoft 365: the directory (tenant) id or domain in the token URL; "organizations" when absent. */
  tenantId?: string;
}

/** The resolved OAuth2 settings of an inbox, secrets in plain (sealed only when stored). */
export interface OAuthSettings {
  provider: OAuthProvider;
  grant: OAuthGrant;
  clientId: string;
  clientSecret: string;
  refreshToken: string | null;
  tokenUrl: string;
  scope: string | null;
}

interface Preset {
  host: string;
  port: number;
  tlsMode: "TLS";
  tokenUrl(tenantId: string | undefined): string;
  scope: Partial<Record<OAuthGrant, string>>;
}

/** The public endpoints of the two big providers (their IMAP host, token endpoint and IMAP scope per grant). */
export const OAUTH_PRESETS: Record<Exclude<OAuthProvider, "CUSTOM">, Preset> = {
  MICROSOFT_365: {
    host: "outlook.office365.com",
    port: 993,
    tlsMode: "TLS",
    tokenUrl: (tenantId) =>
      `https://login.microsoftonline.com/${encodeURIComponent(tenantId ?? "organizations")}/oauth2/v2.0/token`,
    scope: {
      REFRESH_TOKEN: "https://outlook.office.com/IMAP.AccessAsUser.All offline_access",
      CLIENT_CREDENTIALS: "https://outlook.office365.com/.default",
    },
  },
  GOOGLE: {
    host: "imap.gmail.com",
    port: 993,
    tlsMode: "TLS",
    tokenUrl: () => "https://oauth2.googleapis.com/token",
    // Google has no client-credentials grant for Gmail (service accounts sign a JWT instead): refused below.
    scope: { REFRESH_TOKEN: "https://mail.google.com/" },
  },
};

const refuse = (field: string, message: string): never => {
  throw new BadRequestError(`${field} ${message}`, [{ field, message }]);
};

/**
 * Merges what was given over what is stored (`old`, on PATCH) and fills the rest from the provider's preset. A new
 * provider, grant or tenant id takes the preset's token URL and scope again unless they are given too.
 */
export function resolveOAuth(input: OAuthInput, old: OAuthSettings | null): OAuthSettings {
  const provider = input.provider ?? old?.provider ?? "CUSTOM";
  const grant = input.grant ?? old?.grant ?? "REFRESH_TOKEN";
  const represet = !old || input.provider !== undefined || input.grant !== undefined || input.tenantId !== undefined;
  const preset = provider === "CUSTOM" ? null : OAUTH_PRESETS[provider];
  if (preset && !preset.scope[grant]) refuse("oauth.grant", `${grant} is not offered by ${provider}`);
  if (provider === "MICROSOFT_365" && grant === "CLIENT_CREDENTIALS" && !input.tenantId && !input.tokenUrl && represet)
    refuse("oauth.tenantId", "is required for the client-credentials grant of Microsoft 365");
  const tokenUrl = input.tokenUrl ?? (represet && preset ? preset.tokenUrl(input.tenantId) : old?.tokenUrl) ?? null;
  const scope = input.scope ?? (represet && preset ? (preset.scope[grant] ?? null) : (old?.scope ?? null));
  const clientId = input.clientId ?? old?.clientId;
  const clientSecret = input.clientSecret ?? old?.clientSecret;
  const refreshToken = grant === "REFRESH_TOKEN" ? (input.refreshToken ?? old?.refreshToken ?? null) : null;
  if (!clientId) return refuse("oauth.clientId", "is required");
  if (!clientSecret) return refuse("oauth.clientSecret", "is required");
  if (!tokenUrl) return refuse("oauth.tokenUrl", "is required for a CUSTOM provider");
  if (grant === "REFRESH_TOKEN" && !refreshToken) return refuse("oauth.refreshToken", "is required for REFRESH_TOKEN");
  let url: URL | null = null;
  try {
    url = new URL(tokenUrl);
  } catch {
    // refused below
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    return refuse("oauth.tokenUrl", "must be an http(s) URL");
  return { provider, grant, clientId, clientSecret, refreshToken, tokenUrl, scope };
}

/** The IMAP host, port and TLS of a preset, for the fields an Admin left out. */
export function presetServer(provider: OAuthProvider | undefined) {
  return provider && provider !== "CUSTOM" ? OAUTH_PRESETS[provider] : null;
}
