import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { SA_EMAIL, SA_PASSWORD, startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn } from "../harness/process";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";

const START_FORM = { fields: [{ key: "title", type: "text", label: "Title", required: true }] };
const DETAILS_FORM = {
  fields: [
    {
      key: "kind",
      type: "radio",
      label: "Kind",
      required: true,
      options: [
        { value: "person", label: "Person" },
        { value: "company", label: "Company" },
      ],
    },
    { key: "companyName", type: "text", label: "Company name", required: true, visibleIf: 'kind = "company"' },
    { key: "amount", type: "currency", label: "Amount", currency: "EUR" },
  ],
};

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let worker: Awaited<ReturnType<typeof userInTenant>>;
let manager: Awaited<ReturnType<typeof userInTenant>>;

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

async function logIn(page: Page, email: string, password: string) {
  await page.goto(`${web.url}/`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function logOut(page: Page) {
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
}

describeInBrowser("web console in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const a = await createTenant(s, "console-a", sa);
    const b = await createTenant(s, "console-b", sa);
    worker = await userInTenant(s, a, "USER", sa);
    manager = await userInTenant(s, a, "MANAGER", sa);
    // A second company makes the worker choose one after login.
    await s.req("POST", `/api/admin/tenants/${b.id}/members`, { token: sa, json: { userId: worker.id, role: "USER" } });
    const modeler = await userInTenant(s, a, "MODELER", sa);
    await deployBpmn(s, modeler.token, bpmnFixture("console-demo.bpmn"));
    for (const [key, schema] of [
      ["request", START_FORM],
      ["details", DETAILS_FORM],
    ] as const) {
      const res = await s.req("POST", "/api/a/definitions/console-demo/forms", {
        token: modeler.token,
        json: { key, name: key, schema },
      });
      expect(res.status).toBe(201);
    }
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("a worker logs in, picks a company, starts a process and completes its task through the form", async () => {
    const page = await web.browser.newPage({ viewport: { width: 390, height: 844 } });
    await logIn(page, worker.email, worker.password);
    await page.getByRole("heading", { name: "Choose a company" }).waitFor();
    await shot(page, "01-tenant-picker");
    await page.getByRole("button", { name: /Tenant console-a/ }).click();
    await page.getByRole("heading", { name: "Tasks" }).waitFor();
    await page.getByText("No tasks.").waitFor();
    await shot(page, "02-tasklist-empty");

    // An expired or broken access token is refreshed with the refresh token, unseen by the person.
    await page.evaluate(() => {
      const k = "pms.session";
      const v = JSON.parse(localStorage.getItem(k) as string);
      localStorage.setItem(k, JSON.stringify({ ...v, accessToken: "broken" }));
    });
    await page.reload();
    await page.getByText("No tasks.").waitFor();

    await page.getByRole("link", { name: "Start a process" }).click();
    await page.getByRole("link", { name: /Purchase request/ }).click();
    await page.getByLabel(/Business key/).fill("PR-E2E-1");
    // The start form's required field is enforced by the API; the refusal names it by label, in English.
    await page.getByRole("button", { name: "Start" }).click();
    const startAlert = page.locator(".task-form .alert");
    await startAlert.waitFor();
    expect(await startAlert.textContent()).toBe("Please fill in the required fields: Title.");
    expect(await page.getByLabel(/Title/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(".field-text.invalid .error").textContent()).toBe("This field is required.");
    await shot(page, "03a-start-refused");
    await page.getByLabel(/Title/).fill("New laptops");
    await shot(page, "03-start-form");
    await page.getByRole("button", { name: "Start" }).click();

    // Straight to the first task, which the start answer names as the caller's.
    await page.getByRole("heading", { name: "Fill in the details" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("PR-E2E-1");
    expect(await page.getByLabel(/Company name/).count()).toBe(0);
    // The case at a glance: business key, who started it (the worker: "me") and the start form's data, read-only.
    const theCase = page.locator("section.case");
    await theCase.getByText("PR-E2E-1").waitFor();
    expect(await theCase.locator("dd", { hasText: /by me$/ }).count()).toBe(1);
    expect(await theCase.locator("tr", { hasText: "title" }).textContent()).toContain("New laptops");
    expect(await page.locator(".task-facts").textContent()).toContain("Priority");
    // No AI model on this server: no suggestion button that could only fail.
    expect(await page.getByRole("button", { name: "Suggest values (AI)" }).count()).toBe(0);
    await page.getByLabel("Company", { exact: true }).check();
    await page.getByLabel(/Company name/).waitFor();
    await page.getByRole("button", { name: "Complete" }).click();
    const alert = page.locator(".task-form .alert");
    await alert.waitFor();
    // The server's sentence names keys in another language; the console names the field by its label.
    expect(await alert.textContent()).toBe("Please fill in the required fields: Company name.");
    expect(await page.locator(".field-text.invalid .error").textContent()).toBe("This field is required.");
    expect(await page.getByLabel(/Company name/).getAttribute("aria-invalid")).toBe("true");
    await shot(page, "04-task-refused");

    await page.getByLabel("Add a comment").fill("Asked the supplier for a quote.");
    await page.getByRole("button", { name: "Comment" }).click();
    await page.locator(".comments li", { hasText: "Asked the supplier for a quote." }).waitFor();
    await page.getByLabel(/Company name/).fill("ACME Lda");
    await page.getByLabel(/Amount/).fill("1250,50");
    await page.getByRole("button", { name: "Complete" }).click();
    await page.getByText(/Task “Fill in the details” completed/).waitFor();
    await shot(page, "05-tasklist-after-complete");
    const done = await (await s.req("GET", "/api/a/tasks/completed", { token: worker.token })).json();
    expect(done[0].name).toBe("Fill in the details");
    await logOut(page);
    await page.close();
  });

  test("a Manager sees the parked count on the step in the monitor", async () => {
    const page = await web.browser.newPage({ viewport: { width: 390, height: 844 } });
    await logIn(page, manager.email, manager.password);
    // the inbox on a phone: a Manager sees the tenant's open task, claims it, filters on "mine", unclaims it
    await page.getByRole("button", { name: "Claim Approve" }).click();
    await page.getByRole("button", { name: "Unclaim Approve" }).waitFor();
    await page.getByLabel("Show").selectOption("candidate");
    await page.getByText("No tasks.").waitFor();
    await page.getByLabel("Show").selectOption("mine");
    await page.getByRole("button", { name: "Unclaim Approve" }).waitFor();
    await shot(page, "06-tasklist-phone");
    await page.getByRole("button", { name: "Unclaim Approve" }).click();
    await page.getByText("No tasks.").waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("link", { name: "Monitor" }).click();
    await page.getByRole("heading", { name: "Monitor" }).waitFor();
    await page.getByRole("link", { name: "Purchase request" }).click();
    const badge = page.locator('.djs-overlays .badge[data-activity="approve"]');
    await badge.waitFor();
    expect(await badge.textContent()).toBe("1");
    expect(await badge.getAttribute("class")).toContain("USER_TASK");
    expect(await page.locator("td.step-count").allTextContents()).toEqual(["1"]);
    await shot(page, "07-monitor");
    await page.close();
  });

  test("an SA creates a tenant, watches it become ACTIVE, suspends and reactivates it", async () => {
    const page = await web.browser.newPage();
    // Nothing logged in Chromium's console on the way (the slug's pattern compiles under the v flag, the icon exists).
    const logged: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") logged.push(`${m.type()}: ${m.text()}`);
    });
    await logIn(page, SA_EMAIL, SA_PASSWORD);
    await page.getByRole("link", { name: "Tenants" }).first().click();
    await page.getByLabel("Slug").fill("fresh-co");
    await page.getByLabel("Name").fill("Fresh Company");
    await page.getByRole("button", { name: "Create" }).click();
    await page.locator('tr[data-slug="fresh-co"] .status').waitFor();
    // The page reads the list again while the tenant is CREATING, until provisioning makes it ACTIVE.
    await page.locator('tr[data-slug="fresh-co"] .status.ACTIVE').waitFor({ timeout: 20_000 });
    await shot(page, "08-admin-tenants");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Suspend fresh-co" }).click();
    await page.locator('tr[data-slug="fresh-co"] .status.SUSPENDED').waitFor();
    await page.getByRole("button", { name: "Reactivate fresh-co" }).click();
    await page.locator('tr[data-slug="fresh-co"] .status.ACTIVE').waitFor();
    expect(logged).toEqual([]);
    await page.close();
  });
});
