import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";

// A Manager suspends, activates and cancels an instance from its page, each after a confirmation; declining the
// confirmation changes nothing; a USER who takes part sees no such buttons.

const FLOW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="order" name="Order" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Pack"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let manager: Awaited<ReturnType<typeof userInTenant>>;
let user: Awaited<ReturnType<typeof userInTenant>>;

describeInBrowser("instance controls in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "console-control", sa);
    manager = await userInTenant(s, t, "MANAGER", sa);
    user = await userInTenant(s, t, "USER", sa);
    await deployBpmn(s, (await userInTenant(s, t, "MODELER", sa)).token, FLOW);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("suspend, activate and cancel, each confirmed; a refused confirmation does nothing", async () => {
    const inst = await startProcess(s, user.token, { definitionKey: "order", businessKey: "ORD-7" });
    await startProcess(s, user.token, { definitionKey: "order", businessKey: "ORD-6" });
    const detail = async () => (await s.req("GET", `/api/a/instances/${inst.id}`, { token: manager.token })).json();
    const page = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
    let answer = false;
    const asked: string[] = [];
    page.on("dialog", (d) => {
      asked.push(d.message());
      void (answer ? d.accept() : d.dismiss());
    });
    await page.goto(`${web.url}/`);
    await page.getByLabel("E-mail").fill(manager.email);
    await page.getByLabel("Password").fill(manager.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Tasks" }).waitFor();
    // The tasklist's search narrows the loaded inbox by business key (or name, or process).
    await page.locator(".task-row").nth(1).waitFor();
    await page.getByLabel("Search").fill("ord-6");
    await page.getByText("1 task", { exact: true }).waitFor();
    expect(await page.locator(".task-row").textContent()).toContain("ORD-6");
    await page.getByLabel("Sort by").selectOption("name");
    await page.getByLabel("Search").fill("");
    await page.getByText("2 tasks", { exact: true }).waitFor();
    await page.goto(`${web.url}/#/instances/${inst.id}`);
    await page.getByRole("heading", { name: /ORD-7/ }).waitFor();

    await page.getByRole("button", { name: "Suspend" }).click();
    expect(asked.pop()).toMatch(/^Suspend ORD-7\?/);
    expect((await detail()).suspended).toBe(false);
    answer = true;
    await page.getByRole("button", { name: "Suspend" }).click();
    await page.getByText("ORD-7 suspended.").waitFor();
    expect((await detail()).suspended).toBe(true);
    await page.getByRole("button", { name: "Activate" }).click();
    await page.getByText("ORD-7 activated.").waitFor();
    expect((await detail()).suspended).toBe(false);
    await page.getByRole("button", { name: "Cancel the instance" }).click();
    await page.getByText("ORD-7 cancelled.").waitFor();
    expect(asked.pop()).toMatch(/cannot be resumed/);
    expect((await detail()).ended).toBe(true);
    // The page draws the ended instance after the message: the button goes (waited for, not read at one instant).
    await page.getByRole("button", { name: "Cancel the instance" }).waitFor({ state: "detached" });
    await page.screenshot({ path: join(SCREENSHOTS, "24-instance-cancelled.png"), fullPage: true });
    await page.close();

    // A USER who started an instance sees it, without the Manager's buttons.
    const mine = await startProcess(s, user.token, { definitionKey: "order", businessKey: "ORD-8" });
    const p2 = await web.browser.newPage();
    await p2.goto(`${web.url}/`);
    await p2.getByLabel("E-mail").fill(user.email);
    await p2.getByLabel("Password").fill(user.password);
    await p2.getByRole("button", { name: "Sign in" }).click();
    await p2.getByRole("heading", { name: "Tasks" }).waitFor();
    await p2.goto(`${web.url}/#/instances/${mine.id}`);
    await p2.getByRole("heading", { name: /ORD-8/ }).waitFor();
    expect(await p2.getByRole("button", { name: /Suspend|Cancel the instance/ }).count()).toBe(0);
    await p2.close();
  });
});
