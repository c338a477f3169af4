import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken } from "../harness/fixtures";
import { describeInBrowser, launchChromium, SCREENSHOTS } from "../harness/browser";
import { startTestOidc, type TestOidc } from "../harness/oidc";

let s: TestServer;
let idp: TestOidc;
let browser: Awaited<ReturnType<typeof launchChromium>>;
// The service's public URL must be known before it starts (the provider redirects to its callback), so the socket is
// opened first and handed the app once it exists.
const web = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req, srv) => s.app.fetch(req, { server: srv }),
});
const url = `http://127.0.0.1:${web.port}`;

describeInBrowser("SSO from the console's login page (headless Chromium)", () => {
  beforeAll(async () => {
    idp = await startTestOidc(`${url}/api/auth/sso/callback`, {
      alice: { email: "alice@corp.test", email_verified: true },
    });
    s = await startTestServer({ env: { PUBLIC_URL: url, SSO_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });
    const sa = await saToken(s);
    const t = await createTenant(s, "sso-co", sa);
    const user = await s.req("POST", "/api/admin/users", {
      token: sa,
      json: { email: "alice@corp.test", password: "Password-123", firstName: "Alice" },
    });
    const alice = (await user.json()) as { id: string };
    await s.req("POST", `/api/admin/tenants/${t.id}/members`, { token: sa, json: { userId: alice.id, role: "USER" } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    web.stop(true);
    await s?.close();
    await idp?.close();
  });

  test("no connection, no button; with one, the button signs in through the provider and the code is exchanged", async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("link", { name: /Sign in with/ }).count()).toBe(0);

    const created = await s.req("POST", "/api/admin/sso", {
      token: await saToken(s),
      json: {
        name: "corp",
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        allowedDomains: ["corp.test"],
      },
    });
    expect(created.status).toBe(201);
    await page.reload();
    await page.getByRole("link", { name: "Sign in with corp" }).click();
    // The provider's own sign-in and consent pages (oidc-provider's development screens).
    await page.locator('input[name="login"]').fill("alice");
    await page.locator('input[name="password"]').fill("any");
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    // Back at /sso/complete?code=…: exchanged, the address cleaned, and Alice (one company) lands in her tasks.
    await page.getByRole("heading", { name: "Tasks" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(page.url()).not.toContain("code=");
    await page.screenshot({ path: join(SCREENSHOTS, "30-sso-signed-in.png"), fullPage: true });
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("pms.session") as string));
    expect(stored.user.email).toBe("alice@corp.test");
    expect(stored.tenant).toBe("sso-co");

    // A used or made-up code shows the refusal and a way back.
    await page.goto(`${url}/sso/complete?code=made-up`);
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("Single sign-on failed");
    await page.getByRole("link", { name: "Back to sign in" }).waitFor();
    await page.close();
  });
});
