import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";

// The decision editor: dmn-js in the browser on a deployed decision (a Camuda 7 DMN 1.1 file, opened through the
// same namespace step the engine reads with), rules and hit policy edited, a server refusal shown, the next version
// deployed and evaluated through the API; a new decision from the template; a USER kept out.

const SHIPPING = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/DMN/20151101/dmn.xsd" id="defs_shipping" name="Shipping"
  namespace="http://camunda.org/schema/1.0/dmn">
  <decision id="shipping" name="Shipping fee">
    <decisionTable id="t_shipping" hitPolicy="FIRST">
      <input id="in_w" label="Weight"><inputExpression id="ie_w" typeRef="number"><text>weight</text></inputExpression></input>
      <output id="out_fee" label="Fee" name="fee" typeRef="number" />
      <rule id="r_light"><inputEntry id="e1"><text>&lt; 10</text></inputEntry><outputEntry id="o1"><text>5</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`;

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let modeler: Awaited<ReturnType<typeof userInTenant>>;
let user: Awaited<ReturnType<typeof userInTenant>>;

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** A page that records console errors and warnings, uncaught errors and every request to another host. */
async function watchedPage() {
  const page = await web.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("request", (r) => {
    if (!r.url().startsWith(web.url) && !r.url().startsWith("data:")) foreign.push(r.url());
  });
  return { page, problems, foreign };
}

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${web.url}/`);
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Tasks" }).waitFor();
}

const evaluate = async (key: string, variables: Record<string, unknown>) =>
  (await s.req("POST", `/api/a/decisions/${key}/evaluate`, { token: user.token, json: { variables } })).json();
const detail = async (key: string) => (await s.req("GET", `/api/a/decisions/${key}`, { token: modeler.token })).json();
/** A table cell's editor by its row and column (dmn-js's `data-coords`). */
const cell = (page: Page, row: number, col: number) => page.locator(`td.cell[data-coords="${row}:${col}"]`);

describeInBrowser("decision editor (dmn-js) in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "console-dmn", sa);
    modeler = await userInTenant(s, t, "MODELER", sa);
    user = await userInTenant(s, t, "USER", sa);
    const fd = new FormData();
    fd.append("file", new File([SHIPPING], "shipping.dmn", { type: "application/xml" }));
    expect((await s.req("POST", "/api/a/decisions", { token: modeler.token, body: fd })).status).toBe(201);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("a Modeler adds a rule, changes an output and the hit policy, sees a refusal, deploys; evaluate follows", async () => {
    const { page, problems, foreign } = await watchedPage();
    await logIn(page, modeler);
    await page.getByRole("link", { name: "Modeler" }).click();
    await page.getByRole("link", { name: "Edit shipping" }).click();
    await page.locator(".dmn-decision-table-container").waitFor();
    await page.getByRole("button", { name: "Table: Shipping fee", pressed: true }).waitFor();
    expect(await cell(page, 0, 0).textContent()).toContain("< 10");

    // A new rule whose condition the server cannot read: the deploy is refused with the server's reason.
    await page.getByTitle("Add rule").click();
    await page.keyboard.type(">= >=");
    await cell(page, 1, 1).locator(".content-editable").click();
    await page.keyboard.type("12");
    await page.getByRole("button", { name: "Deploy" }).click();
    const refusal = page.getByRole("alert");
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain("invalid FEEL unaryTests '>= >='");
    await shot(page, "60-dmn-editor-refused");
    expect((await detail("shipping")).version).toBe(1);

    // Fixed; an input added (Express, a boolean) and the new rule made to need it; the first rule's fee changed;
    // the hit policy made UNIQUE: deployed as version 2.
    await cell(page, 1, 0).click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type(">= 10");
    await page.getByTitle("Add input").click();
    await page.locator("th.input-cell").nth(1).dblclick();
    const column = page.locator(".context-menu");
    await column.getByLabel("Input label").click();
    await page.keyboard.type("Express");
    await column.getByLabel("Input expression").click();
    await page.keyboard.type("express");
    await column.getByLabel("Type").click();
    await page.locator(".dms-select-options .option", { hasText: "boolean" }).click();
    expect(await column.getByLabel("Type").inputValue()).toBe("boolean");
    await shot(page, "61-dmn-editor-input");
    await page.keyboard.press("Escape");
    await column.waitFor({ state: "detached" });
    await cell(page, 1, 1).locator(".content-editable").click();
    await page.keyboard.type("true");
    await cell(page, 0, 2).locator(".content-editable").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("7");
    await page.getByLabel("Hit policy").click();
    await page.locator(".dms-select-options .option", { hasText: "Unique" }).click();
    await shot(page, "62-dmn-editor-edited");
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByRole("status").filter({ hasText: "Decision shipping deployed as version 2." }).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);

    const d = await detail("shipping");
    expect(d.version).toBe(2);
    expect(d.table.hitPolicy).toBe("UNIQUE");
    expect(
      d.table.inputs.map((i: { label: string; expression: string; typeRef: string }) => [
        i.label,
        i.expression,
        i.typeRef,
      ]),
    ).toEqual([
      ["Weight", "weight", "number"],
      ["Express", "express", "boolean"],
    ]);
    const entries = d.table.rules.map((r: { inputEntries: string[]; outputEntries: string[] }) => [
      r.inputEntries[0],
      r.inputEntries[1],
      r.outputEntries[0],
    ]);
    expect(entries).toEqual([
      ["< 10", expect.stringMatching(/^-?$/), "7"],
      [">= 10", "true", "12"],
    ]);
    const newRule = d.table.rules[1].id as string;
    expect(await evaluate("shipping", { weight: 20, express: true })).toEqual({ result: 12, matchedRules: [newRule] });
    expect(await evaluate("shipping", { weight: 20, express: false })).toEqual({ result: null, matchedRules: [] });
    expect(await evaluate("shipping", { weight: 5 })).toEqual({ result: 7, matchedRules: ["r_light"] });

    // The DRD came with the file (dmn-migrate laid it out): its view opens from the buttons.
    await page.getByRole("button", { name: "Diagram (DRD): Shipping" }).click();
    await page.locator(".dmn-drd-container .djs-element", { hasText: "Shipping fee" }).first().waitFor();
    await shot(page, "63-dmn-editor-drd");

    // The try-out works on the edited version: the new rule answers and is marked.
    await page.getByRole("link", { name: "Try it" }).click();
    await page.getByLabel(/Weight/).fill("20");
    await page.getByLabel(/Express/).check();
    await page.getByRole("button", { name: "Evaluate" }).click();
    await page.getByRole("status").filter({ hasText: "Matched:" }).waitFor();
    expect(await page.locator(`tr[data-rule="${newRule}"].matched`).count()).toBe(1);
    await shot(page, "64-dmn-try-edited");
    // The only line Chromium logged is its own note of the refused deploy (any failed request is logged so).
    expect(problems).toEqual([
      "error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  test("a new decision starts from the template table (a key in use refused) and deploys", async () => {
    const { page, problems, foreign } = await watchedPage();
    await logIn(page, modeler);
    await page.goto(`${web.url}/#/modeler`);
    await page.getByRole("link", { name: "New decision table" }).click();
    await page.getByLabel(/Decision key/).fill("shipping");
    await page.getByRole("button", { name: "Open the editor" }).click();
    await page.getByRole("alert").filter({ hasText: "A decision shipping exists already." }).waitFor();
    expect(await page.locator(".dmn-editor").count()).toBe(0);

    await page.getByLabel(/Decision key/).fill("risk_band");
    await page.getByLabel("Name").fill("Risk band");
    await page.getByRole("button", { name: "Open the editor" }).click();
    await page.locator(".dmn-decision-table-container").waitFor();
    expect(await cell(page, 1, 1).textContent()).toContain('"review"');
    await cell(page, 1, 1).locator(".content-editable").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type('"manual review"');
    await shot(page, "65-dmn-new-from-template");
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByRole("status").filter({ hasText: "Decision risk_band deployed as version 1." }).waitFor();

    const d = await detail("risk_band");
    expect(d.name).toBe("Risk band");
    expect(await evaluate("risk_band", { amount: 10 })).toEqual({ result: "approved", matchedRules: ["Rule_1"] });
    expect(await evaluate("risk_band", { amount: 5000 })).toEqual({
      result: "manual review",
      matchedRules: ["Rule_2"],
    });
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  test("a USER cannot reach the editor: no editor, no dmn-js fetched, and the API refuses the change", async () => {
    const { page, problems } = await watchedPage();
    const fetched: string[] = [];
    page.on("request", (r) => fetched.push(r.url()));
    await logIn(page, user);
    expect(await page.getByRole("link", { name: "Modeler" }).count()).toBe(0);
    await page.goto(`${web.url}/#/modeler/decisions/shipping/edit`);
    await page.getByRole("alert").filter({ hasText: "Editing decisions needs the Modeler or Admin role." }).waitFor();
    expect(await page.locator(".dmn-editor").count()).toBe(0);
    await page.goto(`${web.url}/#/modeler/new-decision`);
    await page.getByRole("alert").filter({ hasText: "needs the Modeler or Admin role" }).waitFor();
    expect(await page.getByRole("button", { name: "Open the editor" }).count()).toBe(0);
    await shot(page, "66-dmn-editor-user");
    expect(fetched.filter((u) => u.includes("/dmn-js/"))).toEqual([]);
    const fd = new FormData();
    fd.append("file", new File([SHIPPING], "shipping.dmn", { type: "application/xml" }));
    expect((await s.req("PUT", "/api/a/decisions/shipping", { token: user.token, body: fd })).status).toBe(403);
    expect((await detail("shipping")).version).toBe(2);
    expect(problems).toEqual([]);
    await page.close();
  });
});
