/** A grant the token server answered, as the test inspects it. */
export interface GrantSeen {
  grantType: string;
  clientId: string;
  scope: string | null;
  refreshToken: string | null;
}

export interface TestTokenServer {
  url: string;
  /** Every successful grant, in order. */
  grants: GrantSeen[];
  /** Refusals answered (invalid_client / invalid_grant). */
  refusals: number;
  /** The refresh token currently valid (rotated on each refresh when `rotate`). */
  refreshToken: string;
  /** The seconds the next tokens live. */
  expiresIn: number;
  /** Withdraws consent: the refresh token stops working (invalid_grant) until `consent()` issues a new one. */
  revoke(): void;
  /** A new consent: answers the new refresh token. */
  consent(): string;
  close(): Promise<void>;
}

/**
 * A local OAuth2 token endpoint (RFC 6749) on 127.0.0.1 for one client: refresh_token and client_credentials grants,
 * each issuing a fresh access token handed to `onToken` (the IMAP server is told to accept it).
 */
export function startTokenServer(opts: {
  clientId: string;
  clientSecret: string;
  onToken(accessToken: string): void;
  rotate?: boolean;
}): TestTokenServer {
  let revoked = false;
  const refuse = (error: string, status = 400) => {
    state.refusals++;
    return Response.json({ error, error_description: `test token server: ${error}` }, { status });
  };
  const issue = (grant: GrantSeen) => {
    state.grants.push(grant);
    const accessToken = `at-${state.grants.length}-${crypto.randomUUID()}`;
    opts.onToken(accessToken);
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: state.expiresIn,
    };
    if (opts.rotate && grant.grantType === "refresh_token") {
      state.refreshToken = `rt-${crypto.randomUUID()}`;
      body.refresh_token = state.refreshToken;
    }
    return Response.json(body);
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method !== "POST" || new URL(req.url).pathname !== "/token") return new Response("no", { status: 404 });
      const form = new URLSearchParams(await req.text());
      if (form.get("client_id") !== opts.clientId || form.get("client_secret") !== opts.clientSecret)
        return refuse("invalid_client", 401);
      const grant: GrantSeen = {
        grantType: form.get("grant_type") ?? "",
        clientId: form.get("client_id") ?? "",
        scope: form.get("scope"),
        refreshToken: form.get("refresh_token"),
      };
      if (grant.grantType === "client_credentials") return issue(grant);
      if (grant.grantType !== "refresh_token") return refuse("unsupported_grant_type");
      if (revoked || grant.refreshToken !== state.refreshToken) return refuse("invalid_grant");
      return issue(grant);
    },
  });
  const state: TestTokenServer = {
    url: `http://127.0.0.1:${server.port}/token`,
    grants: [],
    refusals: 0,
    refreshToken: `rt-${crypto.randomUUID()}`,
    expiresIn: 3600,
    revoke() {
      revoked = true;
    },
    consent() {
      revoked = false;
      state.refreshToken = `rt-${crypto.randomUUID()}`;
      return state.refreshToken;
    },
    close: async () => void (await server.stop(true)),
  };
  return state;
}
