import { describe, expect, test } from "bun:test";
import { resolveOAuth } from "./oauth-presets";

const base = { clientId: "c", clientSecret: "s" };

describe("OAuth2 provider presets", () => {
  test("Microsoft 365: delegated access through the organizations endpoint, app-only through the tenant's", () => {
    expect(resolveOAuth({ ...base, provider: "MICROSOFT_365", refreshToken: "r" }, null)).toMatchObject({
      grant: "REFRESH_TOKEN",
      tokenUrl: "https://login.microsoftonline.com/organizations/oauth2/v2.0/token",
      scope: "https://outlook.office.com/IMAP.AccessAsUser.All offline_access",
    });
    const appOnly = resolveOAuth(
      { ...base, provider: "MICROSOFT_365", grant: "CLIENT_CREDENTIALS", tenantId: "contoso.onmicrosoft.com" },
      null,
    );
    expect(appOnly).toMatchObject({
      tokenUrl: "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token",
      scope: "https://outlook.office365.com/.default",
      refreshToken: null,
    });
  });

  test("Google: its token endpoint and the full-mail scope; no client-credentials grant", () => {
    expect(resolveOAuth({ ...base, provider: "GOOGLE", refreshToken: "r" }, null)).toMatchObject({
      tokenUrl: "https://oauth2.googleapis.com/token",
      scope: "https://mail.google.com/",
    });
    expect(() => resolveOAuth({ ...base, provider: "GOOGLE", grant: "CLIENT_CREDENTIALS" }, null)).toThrow(/grant/);
  });

  test("a PATCH keeps what it does not name, secrets included; a new provider takes its preset again", () => {
    const old = resolveOAuth({ ...base, provider: "GOOGLE", refreshToken: "r" }, null);
    expect(resolveOAuth({ refreshToken: "r2" }, old)).toEqual({ ...old, refreshToken: "r2" });
    expect(resolveOAuth({ provider: "MICROSOFT_365" }, old).tokenUrl).toContain("login.microsoftonline.com");
    expect(() => resolveOAuth({ ...base, refreshToken: "r" }, null)).toThrow(/tokenUrl/);
  });
});
