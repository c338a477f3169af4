import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";

const FIXTURES = join(import.meta.dir, "../fixtures");
let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let modeler: Awaited<ReturnType<typeof userInTenant>>;

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
const get = async (path: string) => (await s.req("GET", `/api${path}`, { token: modeler.token })).json();

async function openAsModeler() {
  const page = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${web.url}/`);
  await page.getByLabel("E-mail").fill(modeler.email);
  await page.getByLabel("Password").fill(modeler.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Tasks" }).waitFor();
  // A Modeler reaches the modeler area and a Modeler's settings, not the company's keys, webhooks and robots nor the
  // monitor.
  expect(await page.getByRole("link", { name: "Monitor" }).count()).toBe(0);
  await page.getByRole("link", { name: "Settings", exact: true }).click();
  const settings = page.getByRole("navigation", { name: "Company settings" });
  await settings.getByRole("link", { name: "Variables" }).waitFor();
  for (const admins of ["API keys", "Webhooks", "Robots", "Mail inboxes"])
    expect(await settings.getByRole("link", { name: admins }).count()).toBe(0);
  await page.getByRole("link", { name: "Modeler" }).click();
  await page.getByRole("heading", { name: "Modeler" }).waitFor();
  return page;
}

describeInBrowser("console modeler area in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "console-model", sa);
    modeler = await userInTenant(s, t, "MODELER", sa);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("a Modeler draws a process in the bpmn-js modeler, deploys it twice and publishes the first version", async () => {
    const page = await openAsModeler();
    await page.getByRole("link", { name: "Draw a new BPMN diagram" }).click();
    await page.getByLabel(/Process key/).fill("drawn");
    await page.getByLabel("Name").fill("Drawn process");
    await page.getByRole("button", { name: "Open the modeler" }).click();
    // The modeler (a lazy chunk) opens the new diagram with its start event; the context pad appends a task.
    await page.locator('.djs-element[data-element-id="start"]').click();
    await page.locator('.djs-context-pad [data-action="append.append-task"]').click();
    await page.keyboard.type("Check the order");
    await page
      .locator(".djs-container svg")
      .first()
      .click({ position: { x: 600, y: 450 } });
    const task = page.locator(".djs-element.djs-shape", { hasText: "Check the order" });
    await task.click();
    await page.locator('.djs-context-pad [data-action="append.end-event"]').click();
    await shot(page, "10-modeler-drawn");
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("BPMN drawn deployed as version 1.").waitFor();
    const v1 = (await get("/a/definitions/drawn/versions")) as { definitionId: string; version: number }[];
    expect(v1.map((v) => v.version)).toEqual([1]);
    const xml = await (
      await s.req("GET", `/api/a/definitions/drawn/versions/${v1[0].definitionId}/xml`, { token: modeler.token })
    ).text();
    expect(xml).toContain('name="Check the order"');
    expect(xml).toContain("endEvent");

    // Edit the deployed diagram again (the latest version's XML) and deploy: version 2, nothing published yet.
    await page.getByRole("link", { name: "Versions: publish it" }).click();
    await page.getByRole("link", { name: "Edit the diagram of the latest version" }).click();
    await page.locator(".djs-element.djs-shape", { hasText: "Check the order" }).waitFor();
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("BPMN drawn deployed as version 2.").waitFor();
    await page.getByRole("link", { name: "Versions: publish it" }).click();
    await page.getByRole("button", { name: "Publish version 1" }).click();
    await page.locator('tr[data-version="1"]', { hasText: "published" }).waitFor();
    await shot(page, "11-modeler-versions");
    const d = (await get("/a/definitions/drawn")) as { publishedVersion: number; latestVersion: number };
    expect([d.publishedVersion, d.latestVersion]).toEqual([1, 2]);
    await page.close();
  });

  test("deploying files (BPMN and DMN), a refused file, and trying a decision table", async () => {
    const page = await openAsModeler();
    const file = page.getByLabel("BPMN, CMMN or DMN file");
    await file.setInputFiles(join(FIXTURES, "bpmn/console-demo.bpmn"));
    await page.getByRole("button", { name: "Deploy", exact: true }).click();
    await page.getByText("BPMN console-demo deployed as version 1.").waitFor();
    await page.locator('tr[data-key="console-demo"]').waitFor();
    await file.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a model") });
    await page.getByRole("button", { name: "Deploy", exact: true }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Unsupported file 'notes.txt'");
    await file.setInputFiles(join(FIXTURES, "dmn/discount.dmn"));
    await page.getByRole("button", { name: "Deploy", exact: true }).click();
    await page.getByText("Decision discount deployed as version 1.").waitFor();

    await page.getByRole("link", { name: "Try discount" }).click();
    await page.getByLabel(/Customer type/).fill("GOLD");
    await page.getByLabel(/Amount/).fill("1500");
    await page.getByRole("button", { name: "Evaluate" }).click();
    const result = page.locator(".result");
    await result.waitFor();
    expect(await result.textContent()).toContain("0.15");
    expect(await page.locator("tr.matched").getAttribute("data-rule")).toBe("r_gold_big");
    await shot(page, "12-decision-try");
    // A number the console cannot read is stopped before sending; a value the table cannot answer shows the server's refusal.
    await page.getByLabel(/Amount/).fill("lots");
    await page.getByRole("button", { name: "Evaluate" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Amount: enter a number.");
    await page.getByLabel(/Customer type/).fill("SILVER");
    await page.getByLabel(/Amount/).fill("6000");
    await page.getByRole("button", { name: "Evaluate" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.locator(".result").count()).toBe(0);
    await page.close();
  });

  test("the forms editor creates a form, refuses an unknown field type, saves a version and publishes", async () => {
    const page = await openAsModeler();
    await page.getByRole("link", { name: "Versions and forms of console-demo" }).click();
    await page.getByRole("link", { name: "New form" }).click();
    await page.getByLabel("Form key").fill("review");
    await page.getByLabel("Form name").fill("Review");
    await page.getByRole("button", { name: "Add a field" }).click();
    await page.locator("#fe-type-0").selectOption("radio");
    await page.locator("#fe-key-0").fill("decision");
    await page.locator("#fe-label-0").fill("Decision");
    await page.locator("#fe-opts-0").fill("yes=Approve\nno=Reject");
    await page.locator("#fe-opts-0").blur();
    await page.getByRole("button", { name: "Add a field" }).click();
    await page.locator("#fe-key-1").fill("reason");
    await page.locator("#fe-label-1").fill("Reason");
    await page.locator("#fe-if-1").fill('decision = "no"');
    await page.locator(".field-row").nth(1).getByLabel("Required").check();
    // The preview renders the schema being edited, with its condition.
    const preview = page.locator(".preview");
    expect(await preview.getByLabel(/Reason/).count()).toBe(0);
    await preview.getByLabel("Reject").check();
    await preview.getByLabel(/Reason/).waitFor();
    await shot(page, "13-form-editor");
    await page.getByRole("button", { name: "Create the form" }).click();
    await page.getByRole("heading", { name: /Form Review/ }).waitFor();
    await page.locator('tr[data-num="1"]').waitFor();

    await page.getByRole("button", { name: "Edit as JSON" }).click();
    const json = page.getByLabel(/Schema \(JSON/);
    const text = (await json.inputValue()).replace('"type": "text"', '"type": "slider"');
    await json.fill(text);
    await page.getByRole("button", { name: "Save a new version" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("slider");
    await json.fill(text.replace('"type": "slider"', '"type": "textarea"'));
    await page.getByRole("button", { name: "Save a new version" }).click();
    await page.getByText("Saved as a new version.").waitFor();
    await page.locator('tr[data-num="2"]').waitFor();
    await page.getByRole("button", { name: "Publish version 1" }).click();
    await page.locator('tr[data-num="1"]', { hasText: "published" }).waitFor();
    await shot(page, "14-form-versions");
    const form = (await get("/a/definitions/console-demo/forms/review")) as {
      latestVersionNum: number;
      publishedVersionNum: number;
      schema: { fields: Record<string, unknown>[] };
    };
    expect([form.latestVersionNum, form.publishedVersionNum]).toEqual([2, 1]);
    expect(form.schema.fields[1]).toEqual({
      key: "reason",
      type: "textarea",
      label: "Reason",
      visibleIf: 'decision = "no"',
      required: true,
    });
    await page.close();
  });
});
