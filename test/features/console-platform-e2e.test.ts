import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SA_EMAIL, SA_PASSWORD, startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { browserOn, describeInBrowser } from "../harness/browser";
import { signedInPage } from "../harness/console-page";
import { startTestOidc, type TestOidc } from "../harness/oidc";

// The platform's pages in the browser (SA): SSO connections against a real OpenID provider on 127.0.0.1, AI quotas
// per company and per person, global process templates with a company subscribing; a tenant Admin reaches none.

const SA = { email: SA_EMAIL, password: SA_PASSWORD };
const flow = (name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="onboarding" name="${name}" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Welcome"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

const DMN = readFileSync(join(import.meta.dir, "../fixtures/dmn/discount.dmn"), "utf8");
let s: TestServer;
let idp: TestOidc;
let web: Awaited<ReturnType<typeof browserOn>>;
let tenant: { id: string; slug: string };
let admin: Awaited<ReturnType<typeof userInTenant>>;
const sa = async <T>(method: string, path: string) =>
  (await (await s.req(method, `/api${path}`, { token: await saToken(s) })).json()) as T;

describeInBrowser("platform administration in headless Chromium", () => {
  beforeAll(async () => {
    idp = await startTestOidc("http://127.0.0.1:9/api/auth/sso/callback", {
      ann: { email: "ann@corp.test", email_verified: true },
    });
    s = await startTestServer({ env: { SSO_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });
    tenant = await createTenant(s, "console-platform", await saToken(s));
    admin = await userInTenant(s, tenant, "ADMIN");
    web = await browserOn(s);
  });
  afterAll(async () => {
    await web?.close();
    await idp?.close();
  });

  test("SSO connections: created after discovery (a wrong issuer refused), changed keeping the secret, disabled, deleted", async () => {
    const cp = await signedInPage(web.browser, web.url, SA, "Choose a company");
    const { page } = cp;
    await page.getByRole("link", { name: "Platform", exact: true }).click();
    await page.getByRole("heading", { name: "SSO connections" }).waitFor();
    await page.getByText("No connections yet").waitFor();
    const form = page.getByRole("form", { name: "New connection" });
    await form.getByLabel(/^Name/).fill("corp");
    await form.getByLabel("Issuer URL").fill("http://127.0.0.1:9/nothing-here");
    await form.getByLabel("Client id").fill(idp.clientId);
    await form.getByLabel("Client secret").fill(idp.clientSecret);
    await form.getByLabel(/E-mail domains allowed/).fill("corp.test");
    await form.getByRole("button", { name: "Create connection" }).click();
    await form.getByRole("alert").waitFor();
    expect(cp.refused).toHaveLength(1);
    await form.getByLabel("Issuer URL").fill(idp.issuer);
    await form.getByRole("button", { name: "Create connection" }).click();
    await page.getByText("Connection corp created.").waitFor();
    type Conn = { name: string; enabled: boolean; allowedDomains: string[]; clientId: string };
    expect(await sa<Conn[]>("GET", "/admin/sso")).toMatchObject([
      { name: "corp", enabled: true, allowedDomains: ["corp.test"] },
    ]);
    expect(await page.content()).not.toContain(idp.clientSecret);

    await page.getByRole("button", { name: "Change corp" }).click();
    const change = page.getByRole("form", { name: "Change corp" });
    expect(await change.getByLabel("Client secret (empty: keep)").inputValue()).toBe("");
    await change.getByLabel(/E-mail domains allowed/).fill("corp.test corp2.test");
    await change.getByRole("button", { name: "Save corp" }).click();
    await page.getByText("corp saved.").waitFor();
    expect((await sa<Conn[]>("GET", "/admin/sso"))[0].allowedDomains).toEqual(["corp.test", "corp2.test"]);
    await page.getByRole("button", { name: "Disable corp" }).click();
    await page.getByText("corp disabled.").waitFor();
    expect((await sa<Conn[]>("GET", "/admin/sso"))[0].enabled).toBe(false);
    await cp.shot("70-sso-connections");
    await page.getByRole("button", { name: "Delete corp" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the connection “corp”/);
    await page.getByText("No connections yet").waitFor();
    expect(await sa<Conn[]>("GET", "/admin/sso")).toEqual([]);
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("AI quotas: a company's monthly quota beside its use, a person's ceiling; a bad number refused on the page", async () => {
    const cp = await signedInPage(web.browser, web.url, SA, "Choose a company");
    const { page } = cp;
    await page.goto(`${web.url}/#/admin/ai-quotas`);
    const row = page.locator(`tr[data-slug="${tenant.slug}"]`);
    await row.waitFor();
    await page.getByLabel(`quota of ${tenant.slug}`, { exact: true }).fill("50000");
    await page.getByRole("button", { name: `Save quota of ${tenant.slug}` }).click();
    await page.getByText("50,000 tokens a month").waitFor();
    expect((await sa<{ monthlyTokens: number }>("GET", `/admin/tenants/${tenant.id}/ai-quota`)).monthlyTokens).toBe(
      50000,
    );
    await page.getByLabel("Find a person (e-mail or name)").fill(admin.email);
    await page.locator(`tr[data-email="${SA_EMAIL}"]`).waitFor({ state: "detached" });
    await page.getByLabel(`ceiling of ${admin.email}`, { exact: true }).fill("-5");
    await page.getByRole("button", { name: `Save ceiling of ${admin.email}` }).click();
    await page.getByText("A quota is a whole number of tokens").waitFor();
    await page.getByLabel(`ceiling of ${admin.email}`, { exact: true }).fill("2000");
    await page.getByRole("button", { name: `Save ceiling of ${admin.email}` }).click();
    await page.getByText(`${admin.email}: at most 2,000 tokens.`).waitFor();
    const users = await sa<{ content: { email: string; aiQuota: number | null }[] }>(
      "GET",
      `/admin/users?search=${encodeURIComponent(admin.email)}`,
    );
    expect(users.content.find((u) => u.email === admin.email)?.aiQuota).toBe(2000);
    await cp.shot("71-ai-quotas");
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("process templates: an SA creates one, a company subscribes, a new version reaches it, unsubscribed, deleted", async () => {
    const cp = await signedInPage(web.browser, web.url, SA, "Choose a company");
    const { page } = cp;
    await page.goto(`${web.url}/#/admin/templates`);
    await page.getByText("No templates yet.").waitFor();
    await page.getByLabel("Key (the process id in the file)").fill("onboarding");
    await page.getByLabel("Name", { exact: true }).fill("Onboarding");
    await page.getByLabel("or its XML").first().fill(flow("Onboarding v1"));
    await page.getByLabel("Subscribe new companies when they are created").uncheck();
    await page.getByRole("button", { name: "Create template" }).click();
    await page.getByText("Template Onboarding created (version 1).").waitFor();

    // The tenant Admin subscribes: the process becomes the company's own definition.
    const ad = await signedInPage(web.browser, web.url, admin, "Tasks");
    expect(await ad.page.getByRole("link", { name: "Platform", exact: true }).count()).toBe(0);
    await ad.page.goto(`${web.url}/#/settings/templates`);
    await ad.page.getByRole("button", { name: "Subscribe to Onboarding" }).click();
    await ad.page.getByText("Subscribed to Onboarding").waitFor();
    const defs = async () =>
      (await (await s.req("GET", "/api/a/definitions", { token: admin.token })).json()) as {
        key: string;
        name: string;
      }[];
    expect((await defs()).find((d) => d.key === "onboarding")?.name).toBe("Onboarding v1");

    await page.reload();
    await page.getByRole("button", { name: "New version of Onboarding" }).click();
    await page
      .getByRole("form", { name: "New version of Onboarding" })
      .getByLabel("or its XML")
      .fill(flow("Onboarding v2"));
    await page.getByRole("button", { name: "Publish version 2" }).click();
    await page.getByText("Onboarding updated: applied in 1 company,").waitFor();
    expect((await defs()).find((d) => d.key === "onboarding")?.name).toBe("Onboarding v2");
    await cp.shot("72-process-templates");

    await ad.page.reload();
    await ad.page.getByRole("button", { name: "Unsubscribe from Onboarding" }).click();
    expect(ad.asked.pop()).toMatch(/Unsubscribe from Onboarding\?/);
    await ad.page.getByText("Unsubscribed from Onboarding.").waitFor();
    const mine = await (await s.req("GET", "/api/a/process-templates", { token: admin.token })).json();
    expect(mine[0].subscription).toBeNull();
    await ad.shot("73-template-subscriptions");
    // The platform's pages are the SA's: the API refuses a tenant Admin and the page says so.
    await ad.page.goto(`${web.url}/#/admin/sso`);
    await ad.page.getByRole("alert").waitFor();
    expect(ad.problems).toEqual([]);
    await ad.page.close();

    await page.getByRole("button", { name: "Delete Onboarding" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the template “Onboarding”/);
    await page.getByText("No templates yet.").waitFor();
    expect(await sa<unknown[]>("GET", "/admin/process-templates")).toEqual([]);
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("DMN templates: an SA creates one a company's Modeler can copy, changes and deletes it", async () => {
    const cp = await signedInPage(web.browser, web.url, SA, "Choose a company");
    const { page } = cp;
    await page.goto(`${web.url}/#/admin/dmn-templates`);
    await page.getByText("No DMN templates yet.").waitFor();
    const form = page.getByRole("form", { name: "New DMN template" });
    await form.getByLabel("Key").fill("discount-tpl");
    await form.getByLabel("Name").fill("Discount");
    await form.getByLabel("or its XML").fill(DMN);
    await form.getByRole("button", { name: "Create DMN template" }).click();
    await page.getByText("DMN template Discount created.").waitFor();
    // A company's Modeler copies it from the console; the copy names its template.
    const modeler = await userInTenant(s, tenant, "MODELER");
    const m = await signedInPage(web.browser, web.url, modeler, "Tasks");
    await m.page.goto(`${web.url}/#/settings/dmn-templates`);
    await m.page.getByRole("button", { name: "Copy Discount" }).click();
    await m.page.getByText(/^Copied: .+ version 1\.$/).waitFor();
    const decisions = (await (await s.req("GET", "/api/a/decisions", { token: modeler.token })).json()) as {
      sourceTemplate: string | null;
    }[];
    expect(decisions.map((d) => d.sourceTemplate)).toContain("discount-tpl");
    await m.page.locator('tr[data-key="discount-tpl"] td', { hasText: "v1" }).waitFor();
    await m.shot("75-dmn-template-copied");
    expect(m.problems).toEqual([]);
    await m.page.close();
    await page.getByRole("button", { name: "Change Discount" }).click();
    await page.getByRole("form", { name: "Change Discount" }).getByLabel("Description").fill("Customer discounts");
    await page.getByRole("button", { name: "Save Discount" }).click();
    await page.getByText("Discount saved.").waitFor();
    type Tpl = { key: string; description: string | null };
    expect(await sa<Tpl[]>("GET", "/admin/dmn-templates")).toMatchObject([
      { key: "discount-tpl", description: "Customer discounts" },
    ]);
    await cp.shot("74-dmn-templates");
    await page.getByRole("button", { name: "Delete Discount" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the DMN template “Discount”/);
    await page.getByText("No DMN templates yet.").waitFor();
    expect(await sa<Tpl[]>("GET", "/admin/dmn-templates")).toEqual([]);
    expect(cp.problems).toEqual([]);
    await page.close();
  });
});
