import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { refundProcess } from "../harness/agent-loop";
import { deployBpmn, startProcess } from "../harness/process";
import { consoleSession, describeInBrowser, launchChromium, listen, SCREENSHOTS } from "../harness/browser";
import { SA_EMAIL, SA_PASSWORD } from "../harness/server";

// The instance page shows an agent loop as a conversation: the model's turns, the tools it called with their
// results, and the person's task it waits for, linked.

let w: AgentWorld;
let web: ReturnType<typeof listen>;
let browser: Awaited<ReturnType<typeof launchChromium>>;

describeInBrowser("agent conversation on the instance page in headless Chromium", () => {
  beforeAll(async () => {
    w = await startAgentWorld();
    web = listen(w.s);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    web?.stop();
    await w?.stop();
  });

  test("turns, tool calls and results, and the person's task the loop waits for", async () => {
    await createAgent(w.s, w.tok.MODELER, { key: "shown", name: "Shown", tools: [], outputVariables: [] });
    await deployBpmn(w.s, w.tok.MODELER, refundProcess("shown-p", "shown"));
    w.scriptFor(
      "shown",
      { content: "Let me look the order up.", toolCalls: [{ name: "lookup_order", arguments: { orderId: "Z9" } }] },
      { toolCalls: [{ name: "ask_person", arguments: { question: "Refund Z9?" } }] },
    );
    const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "shown-p", businessKey: "MAIL-42" });
    for (let i = 0; i < 20 && (await w.s.platform.processRuntime.runDueJobs()) > 0; i++);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const session = await consoleSession(w.s, { email: SA_EMAIL, password: SA_PASSWORD }, "agents-one");
    await page.addInitScript((v) => localStorage.setItem("pms.session", v), session);
    await page.goto(`${web.url}/#/instances/${inst.id}`);
    await page.getByRole("heading", { name: "Agent conversation" }).waitFor();
    const loop = page.getByRole("article", { name: "Agent shown at handle" });
    await loop.getByText("Let me look the order up.").waitFor();
    expect(await loop.textContent()).toContain("lookup_order answered");
    expect(await loop.textContent()).toContain("order Z9 of 40 EUR");
    const waiting = loop.getByRole("link", { name: "ask_person (a person)" });
    await waiting.waitFor();
    const task = (
      (await (await w.s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: w.tok.ADMIN })).json()) as {
        id: string;
      }[]
    )[0];
    expect(await waiting.getAttribute("href")).toBe(`#/tasks/${task.id}`);
    await page.screenshot({ path: join(SCREENSHOTS, "agent-conversation.png"), fullPage: true });
    await page.close();
  }, 60_000);
});
