import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { ConsoleMessage, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";
import { browserOn, consoleSession, describeInBrowser, SCREENSHOTS } from "../harness/browser";

// The tasklist pages, filters, sorts and searches on the server and keeps saved filters; the cockpit finds instances
// by business key, opens a step's instances from its diagram badge, edits a variable (typed) and runs a failed job.

const INBOX = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <process id="inbox" name="Paperwork" isExecutable="true">
    <startEvent id="s"/>
    <userTask id="work" name="\${title}" camunda:candidateGroups="\${group}" camunda:dueDate="\${due}"
      camunda:priority="\${prio}"/>
    <endEvent id="e"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="work"/>
    <sequenceFlow id="f2" sourceRef="work" targetRef="e"/>
  </process>
</definitions>`;

type User = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let tenant: { id: string; slug: string };
let manager: User;
let modeler: User;
const DAY = 86_400_000;
const pad = (i: number) => String(i).padStart(2, "0");
const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** A signed-in Manager's page that records every console error or warning and page error. */
async function managerPage(problems: string[]) {
  const page = await web.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(
    (v) => localStorage.setItem("pms.session", v),
    await consoleSession(s, manager, tenant.slug),
  );
  return page;
}

describeInBrowser("tasklist and cockpit in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    tenant = await createTenant(s, "tasklist-cockpit", sa);
    manager = await userInTenant(s, tenant, "MANAGER", sa);
    modeler = await userInTenant(s, tenant, "MODELER", sa);
    for (const [key, name] of [
      ["clerks", "Clerks"],
      ["bosses", "Bosses"],
    ])
      await s.req("POST", "/api/a/process-roles", { token: modeler.token, json: { processKey: "inbox", key, name } });
    await deployBpmn(s, modeler.token, INBOX);
    await deployBpmn(s, modeler.token, bpmnFixture("console-ops.bpmn"));
    const now = Date.now();
    for (let i = 0; i < 60; i++)
      await startProcess(s, manager.token, {
        definitionKey: "inbox",
        businessKey: `BK-${pad(i)}`,
        variables: {
          title: `${i % 2 ? "Review" : "Approve"} ${pad(i)}`,
          group: i % 3 === 0 ? "clerks" : "bosses",
          due: new Date(i < 5 ? now - DAY : now + 10 * DAY).toISOString(),
          prio: i === 42 ? 99 : 50,
          customer: `C-${i}`,
        },
      });
    web = await browserOn(s);
  }, 120_000);
  afterAll(() => web?.close());

  test("the tasklist pages, filters, sorts, searches by business key and variable, and keeps a saved filter", async () => {
    const problems: string[] = [];
    const page = await managerPage(problems);
    const rows = page.locator(".task-row");
    const figure = (text: string) => page.getByText(text, { exact: true }).waitFor();
    await page.goto(`${web.url}/#/tasks`);
    await figure("60 tasks · page 1 of 2");
    expect(await rows.count()).toBe(50);
    // Rows name the process by its name, not its key.
    expect(await rows.first().textContent()).toContain("Paperwork · BK-59");
    await page.getByRole("button", { name: "Next page" }).click();
    await figure("60 tasks · page 2 of 2");
    expect(await rows.count()).toBe(10);
    expect(await rows.last().textContent()).toContain("BK-00");
    await shot(page, "30-tasklist-page-2");

    // Each "Show" choice with its figure; a claim moves a task from "open to claim" to "mine".
    await page.locator("#flt option", { hasText: "(60)" }).first().waitFor({ state: "attached" });
    expect(await page.locator("#flt option").allTextContents()).toEqual([
      "All I can see (60)",
      "Assigned to me (0)",
      "Open to claim (60)",
    ]);
    await page.getByRole("button", { name: "Claim Approve 00" }).click();
    await page.locator("#flt option", { hasText: "Assigned to me (1)" }).waitFor({ state: "attached" });
    expect(await page.locator("#flt option").allTextContents()).toContain("Open to claim (59)");
    await page.getByRole("button", { name: "Unclaim Approve 00" }).click();
    await page.locator("#flt option", { hasText: "Assigned to me (0)" }).waitFor({ state: "attached" });
    // Processes and groups are offered by name.
    await page.locator("#grp option", { hasText: "Clerks" }).waitFor({ state: "attached" });
    expect(await page.locator("#proc option").allTextContents()).toEqual([
      "All processes",
      "Claim review",
      "Paperwork",
    ]);
    expect(await page.locator("#grp option").allTextContents()).toEqual(["Any group", "Bosses", "Clerks"]);
    await page.getByLabel("Process").selectOption("console-ops");
    await page.getByText("No tasks.").waitFor();
    await page.getByLabel("Process").selectOption("inbox");
    await figure("60 tasks · page 1 of 2");
    await page.getByLabel("Group").selectOption("clerks");
    await figure("20 tasks");
    await page.getByLabel("Group").selectOption("");
    await page.getByLabel("Due").selectOption("overdue");
    await figure("5 tasks");
    await page.getByLabel("Save this filter as").fill("Late");
    await page.getByRole("button", { name: "Save filter" }).click();
    await page.locator(".chip", { hasText: "Late" }).locator(".count", { hasText: "5" }).waitFor();

    await page.getByLabel("Due").selectOption("");
    await page.getByLabel("Sort by").selectOption("priority");
    await figure("60 tasks · page 1 of 2");
    await page.waitForFunction(() => document.querySelector(".task-row")?.textContent?.includes("Approve 42"));
    await page.getByLabel("Sort by").selectOption("name");
    await page.waitForFunction(() => document.querySelector(".task-row")?.textContent?.includes("Approve 00"));

    await page.getByLabel("Search").fill("bk-07");
    await figure("1 task");
    expect(await rows.first().textContent()).toContain("BK-07");
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Variable").fill("customer");
    await page.getByLabel("equals").fill("C-13");
    // The figure said "1 task" for the key already: wait for the row that only the variable finds.
    await page.locator(".task-row", { hasText: "Review 13" }).waitFor();
    await figure("1 task");
    expect(await rows.count()).toBe(1);
    await shot(page, "31-tasklist-variable-search");

    // The saved filter survives a new load of the page and applies with one click.
    await page.reload();
    await figure("60 tasks · page 1 of 2");
    await page.locator(".chip", { hasText: "Late" }).click();
    await figure("5 tasks");
    expect(await page.getByLabel("Due").inputValue()).toBe("overdue");
    await shot(page, "32-tasklist-saved-filter");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "37-tasklist-phone");
    await page.close();
    expect(problems).toEqual([]);
  });

  test("the cockpit finds an instance by business key, drills down from a badge, edits a variable and runs a job", async () => {
    const ids: Record<string, string> = {};
    for (const key of ["CLM-A1", "CLM-A2", "CLM-A3"])
      ids[key] = (await startProcess(s, manager.token, { definitionKey: "console-ops", businessKey: key })).id;
    const [review] = await (
      await s.req("GET", `/api/a/tasks?instanceId=${ids["CLM-A2"]}`, { token: manager.token })
    ).json();
    const done = await s.req("POST", `/api/a/tasks/${review.id}/complete`, {
      token: manager.token,
      json: { variables: { verdict: "covered" } },
    });
    expect(done.status).toBeLessThan(300);
    await s.platform.ports.processRuntime.runDueJobs(); // the posting job fails once: retrying
    // A second version with one instance: the monitor shows version 1 (most running), the search offers both.
    await deployBpmn(s, modeler.token, bpmnFixture("console-ops.bpmn"));
    await startProcess(s, manager.token, { definitionKey: "console-ops", businessKey: "CLM-B1" });
    const failed = async () =>
      (
        (await (await s.req("GET", "/api/a/instances/failed-jobs", { token: manager.token })).json()) as {
          id: string;
          retries: number;
          state: string;
        }[]
      )[0];
    const before = await failed();
    expect(before.state).toBe("EXECUTABLE");

    const problems: string[] = [];
    const page = await managerPage(problems);
    await page.goto(`${web.url}/#/monitor`);
    const card = page.locator('.card[data-process="console-ops"]');
    await card.locator(".running", { hasText: "4 running" }).waitFor();
    expect(await card.locator(".incidents").textContent()).toBe("1 failed job");
    expect(await page.locator('.card[data-process="inbox"] .running').textContent()).toBe("60 running");
    await shot(page, "33-cockpit-cards");

    await card.click();
    await page.locator('.djs-overlays .badge[data-activity="review"]').click();
    await page.locator(".drill").waitFor();
    await page.locator(".drill tr[data-instance]").nth(1).waitFor();
    expect((await page.locator(".drill tr[data-instance] td:first-child").allTextContents()).sort()).toEqual([
      "CLM-A1",
      "CLM-A3",
    ]);
    // The waiting tasks' assignee by name ("me": the Manager started them and the task goes to the starter).
    expect(await page.locator(".drill tr[data-instance] td:nth-child(4)").allTextContents()).toEqual([
      "task · me",
      "task · me",
    ]);
    await shot(page, "34-cockpit-badge-drill");

    const search = page.getByRole("search", { name: "Search instances" });
    await page.getByText("3 instances", { exact: true }).waitFor();
    await search.getByLabel("Version").selectOption("");
    await page.getByText("4 instances", { exact: true }).waitFor();
    await search.getByLabel("Version").selectOption("1");
    await page.getByText("3 instances", { exact: true }).waitFor();
    await search.getByLabel("Business key starts with").fill("CLM-A2");
    await search.getByRole("button", { name: "Search" }).click();
    await page.getByText("1 instance", { exact: true }).waitFor();
    await shot(page, "35-cockpit-search");
    await page.locator("table.instances").getByRole("link", { name: "CLM-A2" }).click();
    await page.getByRole("heading", { name: /CLM-A2/ }).waitFor();

    // A typed variable: a number that does not read is refused before sending, then 250 arrives as a number.
    await page.getByRole("button", { name: "Add a variable" }).click();
    await page.getByLabel("Name", { exact: true }).fill("amount");
    await page.getByLabel("Type of amount").selectOption("number");
    await page.getByLabel("Value of amount").fill("1,5");
    await page.getByRole("button", { name: "Save amount" }).click();
    await page.getByText("Enter a number such as 12 or 3.5.").waitFor();
    await page.getByLabel("Value of amount").fill("250");
    await page.getByRole("button", { name: "Save amount" }).click();
    await page.getByText("Variable amount saved.").waitFor();
    const vars = async () =>
      (await (await s.req("GET", `/api/a/instances/${ids["CLM-A2"]}`, { token: manager.token })).json()).variables;
    expect((await vars()).amount).toBe(250);
    await page.getByRole("button", { name: "Edit verdict" }).click();
    await page.getByLabel("Type of verdict").selectOption("json");
    await page.getByLabel("Value of verdict").fill('{"covered": true}');
    await page.getByRole("button", { name: "Save verdict" }).click();
    await page.getByText("Variable verdict saved.").waitFor();
    expect((await vars()).verdict).toEqual({ covered: true });

    // The job list's "Run now" tries the failing job once more; the failed-job row's Retry resets its attempts.
    await page.getByRole("button", { name: "Run job at post now" }).click();
    await page.getByRole("status").filter({ hasText: "Job at post failed" }).waitFor();
    expect((await failed()).retries).toBe(before.retries - 1);
    await page.getByRole("button", { name: "Retry job at post of CLM-A2" }).click();
    await page.getByRole("status").filter({ hasText: "retried" }).waitFor();
    expect((await failed()).retries).toBeGreaterThan(before.retries - 1);
    await shot(page, "36-cockpit-instance-variables-jobs");

    // The history of ended instances: cancel one, then search the ended ones.
    await s.req("DELETE", `/api/a/instances/${ids["CLM-A3"]}`, { token: manager.token });
    await page.goto(`${web.url}/#/monitor/console-ops`);
    const search2 = page.getByRole("search", { name: "Search instances" });
    await search2.getByLabel("State").selectOption("ended");
    await search2.getByRole("button", { name: "Search" }).click();
    await page.getByText("1 instance", { exact: true }).waitFor();
    expect(await page.locator("table.instances td.status").textContent()).toBe("CANCELLED");
    await page.close();
    expect(problems).toEqual([]);
  });
});
