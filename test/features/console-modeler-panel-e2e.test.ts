import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { ConsoleMessage, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";

// The modeler makes a human step: the replace (wrench) menu and the palette work (one Preact in the bundle), and the
// properties panel writes the camunda: attributes the engine reads. Drawn, deployed from the browser, started: the task
// reaches the candidate group's member.

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let modeler: Awaited<ReturnType<typeof userInTenant>>;
let worker: Awaited<ReturnType<typeof userInTenant>>;
let admin: Awaited<ReturnType<typeof userInTenant>>;

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${web.url}/`);
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Tasks" }).waitFor();
}

/** Fills a properties panel text entry and leaves it, so the panel commits the value (it debounces typing). */
async function panelFill(page: Page, id: string, value: string) {
  const input = page.locator(`#bio-properties-panel-${id}`);
  await input.fill(value);
  await input.press("Tab");
}

/** Selects a shape from nothing selected (a click on the element already selected may leave it unselected). */
async function select(page: Page, text: string) {
  await page
    .locator(".djs-container svg")
    .first()
    .click({ position: { x: 600, y: 500 } });
  await page.locator(".djs-element.djs-shape", { hasText: text }).click();
}

async function openGroup(page: Page, groupId: string) {
  const group = page.locator(`[data-group-id="group-${groupId}"]`);
  const header = group.locator(".bio-properties-panel-group-header");
  if (!((await header.getAttribute("class")) ?? "").includes("open")) await header.click();
}

describeInBrowser("console modeler with the properties panel in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "console-panel", sa);
    modeler = await userInTenant(s, t, "MODELER", sa);
    worker = await userInTenant(s, t, "USER", sa);
    admin = await userInTenant(s, t, "ADMIN", sa);
    const role = await (
      await s.req("POST", "/api/a/process-roles", {
        token: modeler.token,
        json: { processKey: "leave", key: "approvers", name: "Approvers" },
      })
    ).json();
    await s.req("POST", `/api/a/process-roles/${role.id}/members`, {
      token: modeler.token,
      json: { userId: worker.id },
    });
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("a user task drawn with the wrench menu and the panel deploys from the browser and reaches its group", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on("console", (m: ConsoleMessage) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await logIn(page, modeler);
    await page.getByRole("link", { name: "Modeler" }).click();
    await page.getByRole("link", { name: "Draw a new BPMN diagram" }).click();
    await page.getByLabel(/Process key/).fill("leave");
    await page.getByLabel("Name").fill("Leave request");
    await page.getByRole("button", { name: "Open the modeler" }).click();

    // The palette offers every element (not only a generic task).
    await page.locator(".djs-palette").waitFor();
    for (const action of ["create.exclusive-gateway", "create.intermediate-event", "create.subprocess-expanded"])
      expect(await page.locator(`.djs-palette [data-action="${action}"]`).count()).toBe(1);

    await page.locator('.djs-element[data-element-id="start"]').click();
    await page.locator('.djs-context-pad [data-action="append.append-task"]').click();
    await page.keyboard.type("Approve leave");
    await page
      .locator(".djs-container svg")
      .first()
      .click({ position: { x: 700, y: 450 } });
    const task = page.locator(".djs-element.djs-shape", { hasText: "Approve leave" });
    await task.click();
    // The wrench: the replace menu lists the task types, and a user task replaces the generic one.
    await page.locator('.djs-context-pad [data-action="replace"]').click();
    const userTaskEntry = page.locator('.djs-popup [data-id="replace-with-user-task"]');
    await userTaskEntry.waitFor();
    expect(await page.locator(".djs-popup .entry").count()).toBeGreaterThan(5);
    await shot(page, "20-modeler-replace-menu");
    await userTaskEntry.click();
    await page.locator(".djs-popup").waitFor({ state: "detached" });

    // The properties panel shows the selected user task: candidate group, form key, due date, priority.
    await select(page, "Approve leave");
    await page.locator(".bio-properties-panel-header-type", { hasText: /User task/i }).waitFor();
    await openGroup(page, "CamundaPlatform__UserAssignment");
    await panelFill(page, "candidateGroups", "approvers");
    await panelFill(page, "dueDate", "2030-01-15T09:00:00");
    await panelFill(page, "priority", "70");
    await openGroup(page, "CamundaPlatform__Form");
    await page.locator("#bio-properties-panel-formType").selectOption("formKey");
    await panelFill(page, "formKey", "approve-form");
    await shot(page, "21-modeler-properties-panel");

    await select(page, "Approve leave");
    await page.locator('.djs-context-pad [data-action="append.end-event"]').click();
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("BPMN leave deployed as version 1.").waitFor();

    const versions = await (await s.req("GET", "/api/a/definitions/leave/versions", { token: modeler.token })).json();
    const xml = await (
      await s.req("GET", `/api/a/definitions/leave/versions/${versions[0].definitionId}/xml`, {
        token: modeler.token,
      })
    ).text();
    expect(xml).toMatch(/<bpmn:userTask [^>]*camunda:candidateGroups="approvers"/);
    expect(xml).toContain('camunda:formKey="approve-form"');
    expect(xml).toContain('camunda:priority="70"');
    expect(problems).toEqual([]);
    await page.close();

    // The form the task names, then a member of the group starts the process and finds the task in the tasklist.
    const form = { key: "approve-form", name: "Approve", schema: { fields: [{ key: "ok", type: "checkbox" }] } };
    expect((await s.req("POST", "/api/a/definitions/leave/forms", { token: modeler.token, json: form })).status).toBe(
      201,
    );
    const p2 = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logIn(p2, worker);
    await p2.getByRole("link", { name: "Start a process" }).click();
    await p2.getByRole("link", { name: /Leave request/ }).click();
    await p2.getByRole("button", { name: "Start" }).click();
    await p2.getByRole("status").filter({ hasText: "Started with business key" }).waitFor();
    await p2.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click();
    await p2.getByRole("button", { name: "Claim Approve leave" }).waitFor();
    await shot(p2, "22-drawn-task-in-tasklist");
    const tasks = await (await s.req("GET", "/api/a/tasks", { token: worker.token })).json();
    expect(tasks[0]).toMatchObject({ name: "Approve leave", candidateGroups: ["approvers"], priority: 70 });
    expect(tasks[0].formKey).toBe("approve-form");
    expect(tasks[0].dueDate).toMatch(/^2030-01-15T09:00:00/);
    await p2.close();
  });

  test("the process roles page: members by name, the processes that use each role, add and remove with confirmation", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("dialog", (d) => void d.accept());
    await logIn(page, admin);
    await page.getByRole("link", { name: "Modeler" }).click();
    await page.getByRole("link", { name: /Process roles/ }).click();
    const approvers = page.locator('article[data-role="approvers"]');
    await approvers.waitFor();
    // The worker, by name (the e-mail on hover); the drawn process's user task uses the role.
    const who = approvers.locator(`li span[title="${worker.email}"]`);
    expect(await who.textContent()).toMatch(/^U\d+$/); // the fixture's first name, not the id
    const leaveUse = approvers.locator("li", { hasText: "leave" });
    await leaveUse.waitFor();
    expect(await leaveUse.textContent()).toMatch(/leave: Activity_\w+/);

    // A tenant-wide role: created, the worker added from the member list, removed (confirmed), the role deleted.
    await page.getByLabel(/^Key/).fill("clerks");
    await page.getByLabel("Name", { exact: true }).fill("Clerks");
    await page.getByRole("button", { name: "Create role" }).click();
    const clerks = page.locator('article[data-role="clerks"]');
    await clerks.getByText("Nobody holds this role").waitFor();
    await clerks.getByText("every process").waitFor();
    await clerks.getByText("No user task offers work to this role yet.").waitFor();
    await clerks.getByLabel("Add a member to Clerks").selectOption(worker.id);
    await clerks.getByRole("button", { name: "Add" }).click();
    await clerks.locator(`li span[title="${worker.email}"]`).waitFor();
    await shot(page, "23-process-roles");
    const roles = async () =>
      (await (await s.req("GET", "/api/a/process-roles", { token: admin.token })).json()) as {
        key: string;
        members: { userId: string }[];
      }[];
    expect((await roles()).find((r) => r.key === "clerks")?.members.map((m) => m.userId)).toEqual([worker.id]);
    await clerks.getByRole("button", { name: /^Remove / }).click();
    await clerks.getByText("Nobody holds this role").waitFor();
    await clerks.getByRole("button", { name: "Delete the role Clerks" }).click();
    await clerks.waitFor({ state: "detached" });
    expect((await roles()).map((r) => r.key)).toEqual(["approvers"]);
    await page.close();
  });
});
