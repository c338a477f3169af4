import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { ConsoleMessage, Page } from "playwright-core";
import { publishDiscount } from "../harness/agent-loop";
import { createAgent } from "../harness/agents";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { type FakeOpenAi, startFakeOpenAi } from "../harness/openai-server";
import { CLAIMS, INTAKE } from "../harness/modeler-diagrams";
import { deployBpmn } from "../harness/process";
import { startTestServer, type TestServer } from "../harness/server";

// The modeler's "This service" group and its pickers (docs/console.md, docs/agents.md): an ad-hoc sub-process made an
// agent loop, a tool parameter declared on its user task, a form, a process role and a decision picked from the
// tenant's lists, deployed from the browser; the engine then runs the loop the panel wrote.

let ai: FakeOpenAi;
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

/** Selects an element by id (near its top-left corner: inside a sub-process's border) and waits for its panel. */
async function select(page: Page, id: string, name: string) {
  await page.locator(`.djs-element[data-element-id="${id}"]`).click({ position: { x: 4, y: 4 } });
  await page.locator(".bio-properties-panel-header-label", { hasText: name }).waitFor();
}

/** Types a key into a picker (or a panel text field) and leaves it, so the value is written. */
async function pick(page: Page, id: string, value: string) {
  const input = page.locator(`#bio-properties-panel-${id}`);
  await input.fill(value);
  await input.press("Tab");
}

const choices = (page: Page, id: string) =>
  page
    .locator(`#bio-properties-panel-${id}-choices option`)
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));

describeInBrowser("console modeler: this service's fields and pickers in headless Chromium", () => {
  beforeAll(async () => {
    ai = startFakeOpenAi();
    s = await startTestServer({
      env: { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed" },
    });
    const sa = await saToken(s);
    const t = await createTenant(s, "console-service-panel", sa);
    modeler = await userInTenant(s, t, "MODELER", sa);
    worker = await userInTenant(s, t, "USER", sa);
    admin = await userInTenant(s, t, "ADMIN", sa);
    await createAgent(s, modeler.token, { key: "refunder", name: "Refunder" });
    await createAgent(s, modeler.token, { key: "elsewhere", name: "Elsewhere", processKey: "other" });
    await publishDiscount(s, modeler.token);
    await deployBpmn(s, modeler.token, CLAIMS);
    const form = { key: "claim-form", name: "Claim answer", schema: { fields: [{ key: "ok", type: "checkbox" }] } };
    expect((await s.req("POST", "/api/a/definitions/claims/forms", { token: modeler.token, json: form })).status).toBe(
      201,
    );
    const role = await (
      await s.req("POST", "/api/a/process-roles", {
        token: modeler.token,
        json: { processKey: "claims", key: "approvers", name: "Approvers" },
      })
    ).json();
    await s.req("POST", `/api/a/process-roles/${role.id}/members`, {
      token: modeler.token,
      json: { userId: worker.id },
    });
    web = await browserOn(s);
  });
  afterAll(async () => {
    await web?.close(); // closes the service too
    ai?.stop();
  });

  test("an agent loop, a tool parameter, a form, a role and a decision picked in the panel run as drawn", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on("console", (m: ConsoleMessage) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await logIn(page, modeler);
    await page.goto(`${web.url}/#/modeler/edit/claims`);
    await page.locator('.djs-element[data-element-id="handle"]').waitFor();

    // The ad-hoc sub-process: "Agent loop", its list holding this tenant's agents for this process only.
    await select(page, "handle", "Handle the claim");
    const group = page.locator('[data-group-id="group-PmsService"]');
    await group.getByText("Agent loop: the agent").waitFor();
    await group.getByText(/1 to choose from/).waitFor();
    expect(await choices(page, "pmsLoopAgent")).toEqual(["refunder"]);
    await pick(page, "pmsLoopAgent", "refunder");
    await shot(page, "28-modeler-service-panel-agent-loop");

    // The user task inside it: its form and process role picked, a tool parameter declared.
    await select(page, "ask_person", "Ask a person");
    expect(await choices(page, "pmsForm")).toEqual(["claim-form"]);
    await pick(page, "pmsForm", "claim-form");
    await page.getByRole("checkbox", { name: "Approvers (approvers)" }).check();
    await shot(page, "29-modeler-service-panel-form-and-role");
    const params = page.locator('[data-group-id="group-PmsToolParameters"]');
    await params.getByTitle("Create new list item").click();
    await pick(page, "pmsToolParam-0-name", "orderId");
    await pick(page, "pmsToolParam-0-description", 'the "order" number');
    await page.locator("#bio-properties-panel-pmsToolParam-0-type").selectOption("integer");
    await params.getByText("orderId: integer").waitFor();
    // A name the model could not fill is refused in place; a second row is added, then deleted.
    await pick(page, "pmsToolParam-0-name", "order id");
    await params.getByText("A letter or _, then letters, digits or _").waitFor();
    await pick(page, "pmsToolParam-0-name", "orderId");
    await params.getByTitle("Create new list item").click();
    await params.getByText("param2: string").waitFor();
    await params.locator('[data-entry-id="pmsToolParam-1"]').getByTitle("Delete item").click();
    await params.getByText("param2: string").waitFor({ state: "detached" });
    await shot(page, "30-modeler-service-panel-tool-parameter");

    // The plain task becomes a business rule task (the wrench) and its decision is picked from the list.
    await select(page, "rate", "Rate the claim");
    await page.locator('.djs-context-pad [data-action="replace"]').click();
    await page.locator('.djs-popup [data-id="replace-with-rule-task"]').click();
    await page.locator(".djs-popup").waitFor({ state: "detached" });
    await page.locator(".bio-properties-panel-header-type", { hasText: /Business rule task/i }).waitFor();
    expect(await choices(page, "pmsDecision")).toEqual(["discount"]);
    await pick(page, "pmsDecision", "discount");
    await shot(page, "31-modeler-service-panel-decision");

    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("BPMN claims deployed as version 2.").waitFor();
    expect(problems).toEqual([]);
    await page.close();

    const versions = (await (
      await s.req("GET", "/api/a/definitions/claims/versions", { token: modeler.token })
    ).json()) as { definitionId: string; version: number }[];
    const v2 = versions.find((v) => v.version === 2) as { definitionId: string };
    const xml = await (
      await s.req("GET", `/api/a/definitions/claims/versions/${v2.definitionId}/xml`, { token: modeler.token })
    ).text();
    expect(xml).toContain('xmlns:pms="urn:pms:bpmn"');
    expect(xml).toMatch(/<adHocSubProcess id="handle"[^>]* pms:agent="refunder"/);
    expect(xml).toMatch(/<userTask id="ask_person"[^>]* camunda:formKey="claim-form"/);
    expect(xml).toMatch(/<userTask id="ask_person"[^>]* camunda:candidateGroups="approvers"/);
    expect(xml).toContain(
      '<camunda:inputParameter name="orderId">fromAi(toolCall.orderId, "the \\"order\\" number", "integer")</camunda:inputParameter>',
    );
    expect(xml).toMatch(/<businessRuleTask id="rate"[^>]* camunda:decisionRef="discount"/);
    const checked = await s.req("POST", "/api/a/definitions/validate", { token: modeler.token, json: { xml } });
    expect(checked.status).toBe(200);

    // The engine runs the loop the panel wrote: the model is offered the user task with the declared parameter, and
    // its call creates the person's task, with the form and the role, the argument set on it.
    ai.respond = (body) =>
      (body.tools as unknown[] | undefined)?.length &&
      ai.calls.filter((c) => c.path === "/v1/chat/completions").length === 1
        ? { toolCalls: [{ name: "ask_person", arguments: { orderId: 7 } }] }
        : undefined;
    await s.req("POST", "/api/a/definitions/claims/versions/" + v2.definitionId + "/publish", { token: modeler.token });
    const started = await s.req("POST", "/api/a/instances", { token: worker.token, json: { definitionKey: "claims" } });
    expect(started.status).toBe(201);
    for (let i = 0; i < 20 && (await s.platform.processRuntime.runDueJobs()) > 0; i++);
    const call = ai.calls.find((c) => c.path === "/v1/chat/completions") as { body: Record<string, unknown> };
    const tools = call.body.tools as { function: { name: string; parameters: { properties: unknown } } }[];
    expect(tools.find((t) => t.function.name === "ask_person")?.function.parameters.properties).toEqual({
      orderId: { type: "integer", description: 'the "order" number' },
    });
    const tasks = (await (await s.req("GET", "/api/a/tasks", { token: worker.token })).json()) as Record<
      string,
      unknown
    >[];
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ activityId: "ask_person", formKey: "claim-form", candidateGroups: ["approvers"] });
  }, 120_000); // draws, deploys and runs the loop in Chromium: past 30 s on a loaded machine (a full run)

  test("an Admin's service task runs an agent or a robot picked from the lists, a call activity a listed process", async () => {
    const robot = { key: "crm", name: "CRM sync", description: null, parameters: [] };
    expect((await s.req("POST", "/api/a/robots", { token: admin.token, json: robot })).status).toBe(201);
    await deployBpmn(s, admin.token, INTAKE);
    const page = await web.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on("console", (m: ConsoleMessage) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
    });
    await logIn(page, admin);
    await page.goto(`${web.url}/#/modeler/edit/intake`);
    const replace = async (id: string, name: string, entry: string, type: RegExp) => {
      await select(page, id, name);
      await page.locator('.djs-context-pad [data-action="replace"]').click();
      await page.locator(`.djs-popup [data-id="${entry}"]`).click();
      await page.locator(".djs-popup").waitFor({ state: "detached" });
      await page.locator(".bio-properties-panel-header-type", { hasText: type }).waitFor();
    };
    await replace("work", "Do the work", "replace-with-service-task", /Service task/i);
    expect(await choices(page, "pmsRobot")).toEqual(["crm"]);
    await pick(page, "pmsAgent", "refunder");
    // A robot picked afterwards replaces the agent: a service task runs one implementation.
    await pick(page, "pmsRobot", "crm");
    expect(await page.locator("#bio-properties-panel-pmsAgent").inputValue()).toBe("");
    await shot(page, "33-modeler-service-task-robot");
    await replace("sub", "Run claims", "replace-with-call-activity", /Call activity/i);
    expect(await choices(page, "pmsCalled")).toEqual(["claims", "intake"]);
    await pick(page, "pmsCalled", "claims");
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("BPMN intake deployed as version 2.").waitFor();
    expect(problems).toEqual([]);
    await page.close();
    const versions = (await (
      await s.req("GET", "/api/a/definitions/intake/versions", { token: admin.token })
    ).json()) as { definitionId: string; version: number }[];
    const v2 = versions.find((v) => v.version === 2) as { definitionId: string };
    const xml = await (
      await s.req("GET", `/api/a/definitions/intake/versions/${v2.definitionId}/xml`, { token: admin.token })
    ).text();
    expect(xml).toMatch(/<serviceTask id="work"[^>]* camunda:type="external" camunda:topic="crm"/);
    expect(xml).not.toContain("pms:agent");
    expect(xml).toMatch(/<callActivity id="sub"[^>]* calledElement="claims"/);
  });

  test("a list that fails or never answers blocks nothing: the modeler opens, the failure is shown, other lists fill", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on("console", (m: ConsoleMessage) => {
      const expected = /Failed to load resource: the server responded with a status of 500/.test(m.text());
      if ((m.type() === "error" || m.type() === "warning") && !expected) problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await logIn(page, modeler);
    await page.route("**/api/a/decisions", (r) =>
      r.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ status: 500, error: "Internal Server Error", message: "down", path: "/a/decisions" }),
      }),
    );
    await page.route("**/api/a/agents", () => {}); // never answered
    await page.goto(`${web.url}/#/modeler/edit/claims`);
    await page.getByRole("alert").filter({ hasText: "The decisions could not be loaded (down)" }).waitFor();
    await page.getByRole("button", { name: "Deploy", disabled: false }).waitFor();
    await select(page, "handle", "Handle the claim");
    await page.locator('[data-group-id="group-PmsService"]').getByText("Loading the list…").waitFor();
    // The newest version (deployed by the first test) reads back: the loop's agent and the tool parameter.
    expect(await page.locator("#bio-properties-panel-pmsLoopAgent").inputValue()).toBe("refunder");
    await select(page, "ask_person", "Ask a person");
    await page
      .locator('[data-group-id="group-PmsToolParameters"]')
      .getByText("orderId: integer")
      .waitFor({ state: "attached" }); // in the folded group
    expect(await choices(page, "pmsForm")).toEqual(["claim-form"]);
    await shot(page, "34-modeler-lists-failing");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("a user without modeler rights gets no modeler: no link, and the editor's lists are refused", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logIn(page, worker);
    expect(await page.getByRole("link", { name: "Modeler" }).count()).toBe(0);
    await shot(page, "32-user-without-modeler");
    await page.close();
    for (const path of ["/api/a/agents", "/api/a/decisions"])
      expect((await s.req("GET", path, { token: worker.token })).status).toBe(403);
  });
});
