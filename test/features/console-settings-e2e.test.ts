import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { browserOn, describeInBrowser } from "../harness/browser";
import { signedInPage } from "../harness/console-page";
import { resolveTenantVariable } from "../../app/services/tenant-variables/resolve";
import { drainJobs } from "../harness/knowledge";

// The company's settings pages in Chromium: tenant variables (a secret masked and never on the page), document types,
// the notification bell, and what each role reaches (no nav entry, a refusal by address).

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let tenant: { id: string; slug: string };
type Member = Awaited<ReturnType<typeof userInTenant>>;
let admin: Member, modeler: Member, manager: Member, user: Member;

const assigned = (userId: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <process id="review" name="Review" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Check the contract" camunda:assignee="${userId}"/>
    <sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

const EXPENSE = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="expense" name="Expense" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Approve"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

describeInBrowser("company settings pages in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    tenant = await createTenant(s, "console-settings", sa);
    admin = await userInTenant(s, tenant, "ADMIN", sa);
    modeler = await userInTenant(s, tenant, "MODELER", sa);
    manager = await userInTenant(s, tenant, "MANAGER", sa);
    user = await userInTenant(s, tenant, "USER", sa);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("variables: empty state, a value and a secret (masked, never on the page), changed and deleted after a confirmation", async () => {
    const cp = await signedInPage(web.browser, web.url, admin, "Tasks");
    const { page } = cp;
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "Variables" }).click();
    await page.getByText("No variables yet.").waitFor();
    await cp.shot("40-variables-empty");
    await page.getByLabel("Name").fill("API_BASE");
    await page.getByLabel("Value").fill("https://erp.example.com");
    await page.getByRole("button", { name: "Create variable" }).click();
    await page.getByText("Variable API_BASE created.").waitFor();
    await page.getByLabel("Name").fill("ERP_TOKEN");
    await page.getByLabel("Secret (stored sealed").check();
    expect(await page.getByLabel("Value").getAttribute("type")).toBe("password");
    await page.getByLabel("Value").fill("tok-very-secret-42");
    await page.getByRole("button", { name: "Create variable" }).click();
    const secretRow = page.locator('tr[data-name="ERP_TOKEN"]');
    await secretRow.getByText("secret").waitFor();
    expect(await page.content()).not.toContain("tok-very-secret-42");
    expect(resolveTenantVariable(s.platform.tenantDbs.get(tenant.id), "ERP_TOKEN")).toBe("tok-very-secret-42");
    // Changing a value: PUT, checked through the API.
    await page.getByRole("button", { name: "Change API_BASE" }).click();
    await page.getByLabel("Value").last().fill("https://erp2.example.com");
    await page.getByRole("button", { name: "Save API_BASE" }).click();
    await page.locator('tr[data-name="API_BASE"]', { hasText: "erp2.example.com" }).waitFor();
    const one = await (await s.req("GET", "/api/a/variables/API_BASE", { token: admin.token })).json();
    expect(one.value).toBe("https://erp2.example.com");
    await cp.shot("41-variables");
    // On a phone the grouped subnavigation and the table wrap; nothing needs a sideways scroll of the page.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= 390 + 1)).toBe(true);
    await cp.shot("41-variables-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    // Deleting asks first; declining keeps it.
    cp.confirmAnswer = false;
    await page.getByRole("button", { name: "Delete API_BASE" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the variable API_BASE\?/);
    expect((await s.req("GET", "/api/a/variables/API_BASE", { token: admin.token })).status).toBe(200);
    cp.confirmAnswer = true;
    await page.getByRole("button", { name: "Delete API_BASE" }).click();
    await page.locator('tr[data-name="API_BASE"]').waitFor({ state: "detached" });
    expect((await s.req("GET", "/api/a/variables/API_BASE", { token: admin.token })).status).toBe(404);
    expect(cp.problems).toEqual([]);
    await page.close();

    // A Modeler reads the list, the writer by name, with no way to change it.
    const m = await signedInPage(web.browser, web.url, modeler, "Tasks");
    await m.page.goto(`${web.url}/#/settings/variables`);
    const row = m.page.locator('tr[data-name="ERP_TOKEN"]');
    await row.waitFor();
    expect(await row.locator(".person").textContent()).not.toContain("@");
    expect(await row.locator(".person").getAttribute("title")).toBe(admin.email);
    expect(await m.page.getByRole("button", { name: /Delete|Change/ }).count()).toBe(0);
    expect(await m.page.getByRole("link", { name: "API keys" }).count()).toBe(0);
    expect(m.problems).toEqual([]);
    await m.page.close();
  });

  test("document types: a Modeler creates, changes, deactivates and deletes one; a Manager only reads", async () => {
    const cp = await signedInPage(web.browser, web.url, modeler, "Tasks");
    const { page } = cp;
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "Document types" }).click();
    await page.getByText("No document types yet.").waitFor();
    await page.getByLabel("Name").fill("Invoice");
    await page.getByLabel("Description").fill("A supplier's invoice");
    await page.getByRole("button", { name: "Create document type" }).click();
    const row = page.locator('tr[data-name="Invoice"]');
    await row.waitFor();
    await page.getByRole("button", { name: "Change Invoice" }).click();
    await row.getByLabel("Description").fill("An invoice from a supplier");
    await page.getByRole("button", { name: "Save Invoice" }).click();
    await page.getByText("Invoice saved.").waitFor();
    await page.getByRole("button", { name: "Deactivate Invoice" }).click();
    await row.locator(".status.INACTIVE").waitFor();
    const types = async () =>
      (await (await s.req("GET", "/api/a/document-types?isGlobal=false", { token: modeler.token })).json()) as {
        name: string;
        description: string;
        status: string;
      }[];
    expect(await types()).toMatchObject([
      { name: "Invoice", description: "An invoice from a supplier", status: "INACTIVE" },
    ]);
    await cp.shot("42-document-types");
    await page.getByRole("button", { name: "Delete Invoice" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the document type “Invoice”/);
    await row.waitFor({ state: "detached" });
    expect(await types()).toEqual([]);
    expect(cp.problems).toEqual([]);
    await page.close();

    await s.req("POST", "/api/a/document-types", { token: modeler.token, json: { name: "Contract" } });
    const mg = await signedInPage(web.browser, web.url, manager, "Tasks");
    await mg.page.getByRole("link", { name: "Settings", exact: true }).click();
    await mg.page.getByRole("link", { name: "Document types" }).click();
    await mg.page.locator('tr[data-name="Contract"]').waitFor();
    expect(await mg.page.getByRole("button", { name: "Create document type" }).count()).toBe(0);
    expect(await mg.page.getByRole("button", { name: /Delete/ }).count()).toBe(0);
    // A Manager's settings are CMS, document types and knowledge bases only; a Modeler's page by address is refused.
    const subnav = mg.page.getByRole("navigation", { name: "Company settings" }).getByRole("link");
    expect(await subnav.allTextContents()).toEqual(["CMS", "Document types", "Knowledge bases"]);
    await mg.page.goto(`${web.url}/#/settings/variables`);
    await mg.page.getByText("Only a Modeler or an Admin may open this page.").waitFor();
    expect(mg.problems).toEqual([]);
    await mg.page.close();
  });

  test("a USER has no Settings entry and is refused the pages by address", async () => {
    const cp = await signedInPage(web.browser, web.url, user, "Tasks");
    expect(await cp.page.getByRole("link", { name: "Settings", exact: true }).count()).toBe(0);
    await cp.page.goto(`${web.url}/#/settings/mail-inboxes`);
    await cp.page.getByText("Your role in this company reaches no settings.").waitFor();
    await cp.shot("43-settings-refused");
    expect(cp.problems).toEqual([]);
    await cp.page.close();
  });

  test("notifications: the bell counts the unread ones; opening the list and marking them read empties it", async () => {
    await deployBpmn(s, modeler.token, assigned(manager.id));
    await startProcess(s, user.token, { definitionKey: "review", businessKey: "C-1" });
    await startProcess(s, user.token, { definitionKey: "review", businessKey: "C-2" });
    const cp = await signedInPage(web.browser, web.url, manager, "Tasks");
    const { page } = cp;
    const bell = page.getByRole("link", { name: "Notifications, 2 unread" });
    await bell.waitFor();
    await bell.click();
    await page.getByRole("heading", { name: "Notifications" }).waitFor();
    await page.locator("li.unread").nth(1).waitFor();
    await cp.shot("44-notifications");
    await page.getByRole("button", { name: "Mark “New task: Check the contract” as read" }).first().click();
    await page.getByRole("link", { name: "Notifications, 1 unread" }).waitFor();
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();
    const left = await (await s.req("GET", "/api/a/notifications?unread=true", { token: manager.token })).json();
    expect(left.totalElements).toBe(0);
    // A notification's link opens the task it is about.
    await page.getByRole("link", { name: "New task: Check the contract" }).first().click();
    await page.getByRole("heading", { name: "Check the contract" }).waitFor();
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("process settings: configuration, configuration variables (a secret masked) and linked knowledge bases", async () => {
    await deployBpmn(s, modeler.token, EXPENSE);
    const kb = await (
      await s.req("POST", "/api/a/knowledge-bases", { token: modeler.token, json: { name: "Expense rules" } })
    ).json();
    const cp = await signedInPage(web.browser, web.url, admin, "Tasks");
    const { page } = cp;
    await page.goto(`${web.url}/#/settings/processes`);
    await page.getByRole("link", { name: "Expense" }).click();
    await page.getByRole("heading", { name: "Settings of expense" }).waitFor();
    await page.getByLabel("Business key template (empty: the system's)").fill("EXP-${date:yyyy}");
    await page.getByLabel("AI assistants (MCP) may").selectOption("START_AND_READ");
    await page.getByLabel("Keep ended instances (days; empty: the default)").fill("30");
    await page.getByLabel("Uploads").selectOption("FORM_ONLY");
    await page.getByLabel("Who uploads (process role keys; empty: any role)").fill("clerk");
    await page.getByRole("button", { name: "Save configuration" }).click();
    await page.getByText("Configuration saved.").waitFor();
    const cfg = await (await s.req("GET", "/api/a/definitions/expense/config", { token: modeler.token })).json();
    expect(cfg).toMatchObject({
      businessKeyTemplate: "EXP-${date:yyyy}",
      mcpPolicy: "START_AND_READ",
      historyTimeToLive: 30,
      attachmentPolicy: { uploadMode: "FORM_ONLY", uploadRoles: ["clerk"] },
    });

    const vars = page.getByRole("form", { name: "Set a configuration variable" });
    await vars.getByLabel("Name").fill("ERP_URL");
    await vars.getByLabel("Value").fill("https://erp.example.com");
    await vars.getByRole("button", { name: "Set variable" }).click();
    await page.locator('tr[data-name="ERP_URL"]').waitFor();
    await vars.getByLabel("Name").fill("ERP_KEY");
    await vars.getByLabel("Secret (never shown again)").check();
    await vars.getByLabel("Value").fill("erp-key-s3cret");
    await vars.getByRole("button", { name: "Set variable" }).click();
    await page.locator('tr[data-name="ERP_KEY"] .masked').waitFor();
    expect(await page.content()).not.toContain("erp-key-s3cret");
    const listed = await (await s.req("GET", "/api/a/definitions/expense/variables", { token: admin.token })).json();
    expect(listed.map((v: { name: string }) => v.name).sort()).toEqual(["ERP_KEY", "ERP_URL"]);
    await page.getByRole("button", { name: "Delete ERP_URL" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the configuration variable ERP_URL/);
    await page.locator('tr[data-name="ERP_URL"]').waitFor({ state: "detached" });

    await page.getByLabel("Knowledge base", { exact: true }).selectOption({ label: "Expense rules" });
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await page.locator('li[data-name="Expense rules"]').waitFor();
    const linked = async () =>
      (await (await s.req("GET", "/api/a/knowledge-bases/process/expense", { token: modeler.token })).json()) as {
        id: string;
      }[];
    expect((await linked()).map((b) => b.id)).toEqual([kb.id]);
    await cp.shot("45-process-settings");
    await page.getByRole("button", { name: "Unlink Expense rules" }).click();
    await page.getByText("No knowledge base is linked").waitFor();
    expect(await linked()).toEqual([]);
    // The process's own documents: uploaded, indexed (the page follows the job), counted, then all removed (confirmed).
    await page.getByLabel("PDF, TXT or Markdown file").setInputFiles({
      name: "policy.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("Expenses above 500 euros need a receipt."),
    });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.getByText("policy.txt uploaded; it is being indexed.").waitFor();
    await drainJobs(s);
    await page.locator('tr[data-name="policy.txt"] .status.INDEXED').waitFor();
    await page.reload();
    await page.getByText("1 passage indexed.").waitFor();
    await page.getByRole("button", { name: "Remove all documents" }).click();
    expect(cp.asked.pop()).toMatch(/Remove every document of expense/);
    await page.getByText("The process's documents were removed.").waitFor();
    const docs = await (
      await s.req("GET", "/api/a/definitions/expense/knowledge/documents", { token: modeler.token })
    ).json();
    expect(docs.totalElements).toBe(0);
    expect(cp.problems).toEqual([]);
    await page.close();
  });
});
