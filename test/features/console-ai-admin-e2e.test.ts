import { afterAll, beforeAll, expect, test } from "bun:test";
import { SA_EMAIL, SA_PASSWORD, startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { browserOn, describeInBrowser } from "../harness/browser";
import { signedInPage } from "../harness/console-page";
import { drainJobs } from "../harness/knowledge";
import { agentProcess } from "../harness/agents";
import { deployBpmn } from "../harness/process";
import { type FakeOpenAi, startFakeOpenAi } from "../harness/openai-server";

// Knowledge bases and agents in the browser, against a local OpenAI-compatible server: a base created, a document
// uploaded and indexed, searched and deleted; an agent created, configured with tools, a base and outputs, and run in
// its playground; deletions confirmed and checked through the API.

let s: TestServer;
let ai: FakeOpenAi;
let web: Awaited<ReturnType<typeof browserOn>>;
type Member = Awaited<ReturnType<typeof userInTenant>>;
let modeler: Member, user: Member, admin: Member;
let tenantId = "";

const bases = async () =>
  (await (await s.req("GET", "/api/a/knowledge-bases", { token: modeler.token })).json()) as {
    id: string;
    name: string;
  }[];

describeInBrowser("knowledge bases and agents in headless Chromium", () => {
  beforeAll(async () => {
    ai = startFakeOpenAi();
    s = await startTestServer({
      env: { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed" },
    });
    const sa = await saToken(s);
    const t = await createTenant(s, "console-ai", sa);
    tenantId = t.id;
    modeler = await userInTenant(s, t, "MODELER", sa);
    user = await userInTenant(s, t, "USER", sa);
    admin = await userInTenant(s, t, "ADMIN", sa);
    web = await browserOn(s);
  });
  afterAll(async () => {
    await web?.close();
    ai?.stop();
  });

  test("a knowledge base: created, a document uploaded and indexed, searched, deleted (confirmed)", async () => {
    const cp = await signedInPage(web.browser, web.url, modeler, "Tasks");
    const { page } = cp;
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "Knowledge bases" }).click();
    await page.getByText("No knowledge bases yet.").waitFor();
    await page.getByLabel("Name").fill("Handbook");
    await page.getByLabel("Description").fill("Safety rules");
    await page.getByRole("button", { name: "Create knowledge base" }).click();
    await page.getByRole("heading", { name: "Handbook" }).waitFor();
    await page.getByText("No documents yet.").waitFor();
    await page.getByLabel("PDF, TXT or Markdown file").setInputFiles({
      name: "rules.md",
      mimeType: "text/markdown",
      buffer: Buffer.from("# Boots\n\nSteel-toe boots are mandatory on site.\n\n# Vans\n\nElectric vans are leased."),
    });
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("rules.md uploaded; it is being indexed.").waitFor();
    // Indexing runs as a background job; the page reads the list again until it is done.
    await drainJobs(s);
    await page.locator('tr[data-name="rules.md"] .status.INDEXED').waitFor();
    await page.locator('[data-testid="kb-documents"]', { hasText: "1" }).waitFor();
    expect(await page.locator('tr[data-name="rules.md"]').textContent()).toContain("by me");
    await page.getByLabel("Question or words").fill("which boots are mandatory");
    await page.getByRole("button", { name: "Search" }).click();
    await page.locator("ol.hits li", { hasText: "rules.md" }).first().waitFor();
    await cp.shot("60-knowledge-base");
    await page.getByRole("button", { name: "Delete rules.md" }).click();
    expect(cp.asked.pop()).toMatch(/Delete rules\.md\?/);
    await page.getByText("No documents yet.").waitFor();
    const [kb] = await bases();
    const docs = await (
      await s.req("GET", `/api/a/knowledge-bases/${kb.id}/documents`, { token: modeler.token })
    ).json();
    expect(docs.totalElements).toBe(0);
    await page.getByRole("link", { name: "← Knowledge bases" }).click();
    cp.confirmAnswer = false;
    await page.getByRole("button", { name: "Delete Handbook" }).click();
    expect(await bases()).toHaveLength(1);
    cp.confirmAnswer = true;
    await page.getByRole("button", { name: "Delete Handbook" }).click();
    await page.getByText("No knowledge bases yet.").waitFor();
    expect(await bases()).toEqual([]);
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("an agent: created, configured (tools, a base, outputs), run in the playground, deleted", async () => {
    const kb = await (
      await s.req("POST", "/api/a/knowledge-bases", { token: modeler.token, json: { name: "Policies" } })
    ).json();
    const cp = await signedInPage(web.browser, web.url, modeler, "Tasks");
    const { page } = cp;
    await page.goto(`${web.url}/#/settings/agents`);
    await page.getByText("No agents yet.").waitFor();
    await page.getByLabel("Key").fill("triage");
    await page.getByLabel("Name").fill("Triage");
    expect(await page.getByLabel("Model").inputValue()).toBe("fake-chat");
    await page.getByLabel("Instructions").fill("Sort the request into a category.");
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.getByRole("heading", { name: /Triage/ }).waitFor();
    await page.getByLabel("Instructions").fill("Sort the request into billing, support or sales.");
    await page.getByLabel(/set output variables/).check();
    await page.getByLabel("Policies").check();
    await page.getByRole("textbox", { name: /^Output variables/ }).fill("category: string the kind of request");
    await page.getByRole("button", { name: "Save agent" }).click();
    await page.getByText("Triage saved.").waitFor();
    const agent = await (await s.req("GET", "/api/a/agents/triage", { token: modeler.token })).json();
    expect(agent).toMatchObject({
      instructions: "Sort the request into billing, support or sales.",
      tools: ["set_output"],
      knowledgeBaseIds: [kb.id],
      outputVariables: [{ name: "category", type: "string", description: "the kind of request" }],
    });
    // A malformed output line is refused on the page, nothing saved.
    await page.getByRole("textbox", { name: /^Output variables/ }).fill("category: money");
    await page.getByRole("button", { name: "Save agent" }).click();
    await page.getByText(/Line 1: write/).waitFor();

    ai.script.push({ content: '{"category": "billing"}' });
    await page.getByLabel("Inputs (JSON object)").fill('{"text": "My invoice is wrong"}');
    await page.getByRole("button", { name: "Run" }).click();
    await page.locator('[data-testid="play-outputs"]', { hasText: "billing" }).waitFor();
    const sent = JSON.stringify(ai.calls.at(-1)?.body);
    expect(sent).toContain("My invoice is wrong");
    await cp.shot("61-agent");
    await page.getByRole("link", { name: "← Agents" }).click();
    await page.getByRole("button", { name: "Delete Triage" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the agent “Triage”/);
    await page.getByText("No agents yet.").waitFor();
    expect((await s.req("GET", "/api/a/agents/triage", { token: modeler.token })).status).toBe(404);
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("an SA, and the company's Admin, see its AI use this month by feature and by person (the playground's calls)", async () => {
    const cp = await signedInPage(web.browser, web.url, { email: SA_EMAIL, password: SA_PASSWORD }, "Choose a company");
    const { page } = cp;
    await page.goto(`${web.url}/#/admin/ai-quotas`);
    await page.getByRole("button", { name: "Usage of console-ai" }).click();
    const mine = page.locator(`tr[data-user="${modeler.id}"]`);
    await mine.waitFor();
    expect(await mine.locator(".person").getAttribute("title")).toBe(modeler.email);
    const api = await (
      await s.req("GET", `/api/admin/tenants/${tenantId}/ai-usage`, { token: await saToken(s) })
    ).json();
    const row = api.byCaller.find((c: { userId: string }) => c.userId === modeler.id);
    expect(await mine.textContent()).toContain(row.tokens.toLocaleString("en-US"));
    await page.locator("td code", { hasText: api.byFeature[0].feature }).first().waitFor();
    await cp.shot("63-ai-usage");
    expect(cp.problems).toEqual([]);
    await page.close();
    // The company's Admin reads the same figures for their own company, and that no quota is configured.
    const ad = await signedInPage(web.browser, web.url, admin, "Tasks");
    await ad.page.goto(`${web.url}/#/settings/ai-usage`);
    await ad.page.locator(`tr[data-user="${modeler.id}"]`, { hasText: row.tokens.toLocaleString("en-US") }).waitFor();
    await ad.page.getByText("No monthly quota is configured").waitFor();
    expect(ad.problems).toEqual([]);
    await ad.page.close();
  });

  test("a failed AI step: its starter is notified, and the notification opens the failures narrowed to its key", async () => {
    await deployBpmn(s, modeler.token, agentProcess("aiflow", `pms:agent="ghost"`));
    const start = await s.req("POST", "/api/a/instances", {
      token: user.token,
      json: { definitionKey: "aiflow", businessKey: "AI-7" },
    });
    expect(start.status).toBeGreaterThanOrEqual(400);
    const cp = await signedInPage(web.browser, web.url, user, "Tasks");
    const { page } = cp;
    await page.getByRole("link", { name: "Notifications, 1 unread" }).click();
    await page.locator("li.unread a").first().click();
    await page.getByRole("heading", { name: "Failed AI steps" }).waitFor();
    expect(await page.getByLabel("Business key").inputValue()).toBe("AI-7");
    const row = page.locator('tr[data-activity="step"]');
    await row.waitFor();
    expect(await row.textContent()).toContain("ghost");
    await cp.shot("62-ai-failures");
    // Opening it marked the notification read.
    await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();
    await page.getByLabel("Business key").fill("NOPE");
    await page.getByText("No failed AI step for this business key.").waitFor();
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("a USER reaches neither page: no entry, a refusal by address", async () => {
    const cp = await signedInPage(web.browser, web.url, user, "Tasks");
    await cp.page.goto(`${web.url}/#/settings/agents`);
    await cp.page.getByText("Your role in this company reaches no settings.").waitFor();
    expect(await cp.page.getByRole("link", { name: "Agents" }).count()).toBe(0);
    expect(cp.problems).toEqual([]);
    await cp.page.close();
  });
});
