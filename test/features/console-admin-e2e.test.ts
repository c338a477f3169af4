import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { SA_EMAIL, SA_PASSWORD, startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";
import { startWebhookReceiver } from "../harness/webhook-receiver";
import { deployBpmn } from "../harness/process";

const FLOW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="intake" name="Intake" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Check"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let tenant: { id: string; slug: string };
let admin: Awaited<ReturnType<typeof userInTenant>>;
const receiver = startWebhookReceiver();

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** Signs in and waits for the first page (the tenant picker of an SA, the tasks of a one-company member). */
async function logIn(email: string, password: string, landing: string) {
  const page = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${web.url}/`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: landing }).waitFor();
  return page;
}

describeInBrowser("console administration in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer({ env: { WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1" } });
    const sa = await saToken(s);
    tenant = await createTenant(s, "console-adm", sa);
    admin = await userInTenant(s, tenant, "ADMIN", sa);
    const v = await s.req("POST", "/api/a/variables", {
      token: admin.token,
      json: { name: "SMTP_PASSWORD", value: "s3cret-value", secret: true },
    });
    expect(v.status).toBe(201);
    web = await browserOn(s);
  });
  afterAll(async () => {
    await web?.close();
    receiver.stop();
  });

  test("an SA creates a user, deactivates and reactivates them, and manages the members of a tenant", async () => {
    const page = await logIn(SA_EMAIL, SA_PASSWORD, "Choose a company");
    let accept = true;
    const asked: string[] = [];
    page.on("dialog", (d) => {
      asked.push(d.message());
      void (accept ? d.accept() : d.dismiss());
    });
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByLabel("E-mail").fill("new.person@test.local");
    await page.getByLabel("First name").fill("Nova");
    await page.getByLabel("Initial password").fill("nova-password-1");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByText("User new.person@test.local created.").waitFor();
    // A second time: the server refuses the duplicate e-mail and the page shows why.
    await page.getByLabel("E-mail").fill("new.person@test.local");
    await page.getByLabel("First name").fill("Nova");
    await page.getByLabel("Initial password").fill("nova-password-1");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.locator("form .alert").waitFor();
    await page.getByRole("button", { name: "Deactivate new.person@test.local" }).click();
    expect(asked.pop()).toMatch(/^Deactivate new\.person@test\.local\?/);
    await page.locator('tr[data-email="new.person@test.local"] .status.INACTIVE').waitFor();
    const refused = await s.req("POST", "/api/auth/login", {
      json: { email: "new.person@test.local", password: "nova-password-1" },
    });
    expect(refused.status).not.toBe(200);
    await page.getByRole("button", { name: "Reactivate new.person@test.local" }).click();
    await page.locator('tr[data-email="new.person@test.local"] .status.ACTIVE').waitFor();
    await shot(page, "20-admin-users");

    await page.getByRole("link", { name: "Tenants" }).first().click();
    // What the tenant holds shows below its members: a process and a tenant-wide role held by the Admin, by name.
    await deployBpmn(s, admin.token, FLOW);
    const clerks = await (
      await s.req("POST", "/api/a/process-roles", { token: admin.token, json: { key: "clerks", name: "Clerks" } })
    ).json();
    await s.req("POST", `/api/a/process-roles/${clerks.id}/members`, {
      token: admin.token,
      json: { userId: admin.id },
    });
    await page.getByRole("link", { name: "Members of console-adm" }).click();
    await page.locator('tr[data-key="intake"]').waitFor();
    expect(await page.locator('tr[data-role="clerks"] .person').getAttribute("title")).toBe(admin.email);
    await page.getByRole("heading", { name: /Members of Tenant console-adm/ }).waitFor();
    await page.getByLabel("Find a user (e-mail or name)").fill("new.person");
    await page.getByLabel("User", { exact: true }).selectOption({ label: "new.person@test.local (Nova)" });
    await page.getByLabel("Role", { exact: true }).selectOption("MANAGER");
    await page.getByRole("button", { name: "Add member" }).click();
    const role = page.getByLabel("Role of new.person@test.local");
    await role.waitFor();
    expect(await role.inputValue()).toBe("MANAGER");
    const membersOf = async () =>
      (await (await s.req("GET", `/api/admin/tenants/${tenant.id}/members`, { token: await saToken(s) })).json()) as {
        email: string;
        role: string;
      }[];
    // A role change and a removal ask first; declined, nothing changes and the select shows the role kept.
    accept = false;
    await role.selectOption("MODELER");
    await page.waitForFunction(
      () =>
        (document.querySelector('tr[data-email="new.person@test.local"] select') as HTMLSelectElement | null)?.value ===
          "MANAGER" && document.querySelectorAll("[role=alert]").length === 0,
    );
    expect(asked.pop()).toMatch(/from MANAGER to MODELER/);
    expect((await membersOf()).find((m) => m.email === "new.person@test.local")?.role).toBe("MANAGER");
    accept = true;
    await role.selectOption("MODELER");
    await page.getByText("new.person@test.local is now MODELER.").waitFor();
    expect((await membersOf()).find((m) => m.email === "new.person@test.local")?.role).toBe("MODELER");
    await shot(page, "21-admin-members");
    await page.getByRole("button", { name: "Remove new.person@test.local" }).click();
    expect(asked.pop()).toMatch(/Remove new\.person@test\.local from/);
    await page.locator('tr[data-email="new.person@test.local"]').waitFor({ state: "detached" });
    expect((await membersOf()).some((m) => m.email === "new.person@test.local")).toBe(false);
    await page.close();
  });

  test("a tenant Admin creates an API key (shown once) that works until it is revoked", async () => {
    const page = await logIn(admin.email, admin.password, "Tasks");
    // A tenant Admin gets the company's settings, not the platform's pages.
    expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Tenants" }).count()).toBe(0);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    await page.getByText("No API keys yet.").waitFor();
    await page.getByLabel("Name").fill("ci");
    await page.getByLabel(/write \(POST/).check();
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByLabel("Key “ci”");
    await shown.waitFor();
    const key = await shown.inputValue();
    expect((await s.req("GET", "/api/a/definitions", { apiKey: key })).status).toBe(200);
    await shot(page, "22-api-key-created");
    await page.reload();
    await page.locator('tr[data-name="ci"]').waitFor();
    expect(await page.content()).not.toContain(key);
    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Revoke ci" }).click();
    await page.locator('tr[data-name="ci"]').waitFor({ state: "detached" });
    expect((await s.req("GET", "/api/a/definitions", { apiKey: key })).status).toBe(401);
    // No scope: the server's refusal names the valid scopes.
    await page.getByLabel("Name").fill("nothing");
    await page.getByLabel(/read \(GET/).uncheck();
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/read.*write/);
    await page.close();
  });

  test("webhooks: created with its secret shown once, disabled and enabled, a test delivery listed", async () => {
    const page = await logIn(admin.email, admin.password, "Tasks");
    await page.goto(`${web.url}/#/settings/webhooks`);
    await page.getByText("No webhooks yet.").waitFor();
    await page.getByLabel("URL").fill(`${receiver.url}/hook`);
    await page.getByLabel("task.created").check();
    await page.getByRole("button", { name: "Create webhook" }).click();
    const secret = await page.getByLabel("Signing secret").inputValue();
    expect(secret).toStartWith("whsec_");
    const row = page.locator(`tr[data-url="${receiver.url}/hook"]`);
    expect(await row.textContent()).toContain("task.created");
    await page.getByRole("button", { name: `Disable ${receiver.url}/hook` }).click();
    await row.locator(".status.SUSPENDED").waitFor();
    await page.getByRole("button", { name: `Enable ${receiver.url}/hook` }).click();
    await row.locator(".status.ACTIVE").waitFor();
    await shot(page, "23-webhooks");
    await page.getByRole("link", { name: `Deliveries of ${receiver.url}/hook` }).click();
    await page.getByRole("button", { name: "Send a test event" }).click();
    await page.getByText("Test event: SUCCEEDED (answer 200).").waitFor();
    await page.locator("td", { hasText: "webhook.ping" }).waitFor();
    const got = receiver.received.at(-1);
    expect(got && receiver.verify(secret, got).type).toBe("webhook.ping");
    await shot(page, "24-webhook-deliveries");
    await page.close();
  });

  test("robots: created with parameters; the secret one is configured as a tenant variable reference", async () => {
    const page = await logIn(admin.email, admin.password, "Tasks");
    await page.goto(`${web.url}/#/settings/robots`);
    await page.getByLabel(/^Key/).fill("mailer");
    await page.getByLabel("Name", { exact: true }).fill("Mailer");
    for (const [i, name, type, required, secret] of [
      [0, "host", "string", true, false],
      [1, "port", "number", false, false],
      [2, "password", "string", false, true],
    ] as const) {
      await page.getByRole("button", { name: "Add a parameter" }).click();
      await page.getByLabel(`Parameter ${i + 1} name`).fill(name);
      await page.locator(`#p-type-${i}`).selectOption(type);
      const row = page.locator(".param-row").nth(i);
      if (required) await row.getByLabel("required").check();
      if (secret) await row.getByLabel("secret").check();
    }
    await page.getByRole("button", { name: "Create robot" }).click();
    await page.getByRole("link", { name: "Configure mailer" }).click();
    // Without the required host the server refuses, naming the field.
    await page.getByLabel("port", { exact: true }).fill("2525");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await page.locator(".field.invalid", { hasText: "host" }).waitFor();
    expect(await page.getByLabel(/host/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("alert").textContent()).toContain("values.host is required");
    await page.getByLabel(/host/).fill("smtp.example.com");
    await page.getByLabel(/password/).selectOption("SMTP_PASSWORD");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await page.getByText("Configuration saved.").waitFor();
    await shot(page, "25-robot-config");
    const cfg = await (await s.req("GET", "/api/a/robots/mailer/config", { token: admin.token })).json();
    expect(cfg.values).toEqual({ host: "smtp.example.com", port: 2525, password: { variable: "SMTP_PASSWORD" } });
    expect(JSON.stringify(cfg)).not.toContain("s3cret-value");
    await page.close();
  });
});
