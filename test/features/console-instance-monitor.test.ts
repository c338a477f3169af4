import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn } from "../harness/process";
import { browserOn, describeInBrowser, consoleSession, SCREENSHOTS } from "../harness/browser";

// The instance view (diagram states, variables, history, case plan items and their actions) and the monitor's
// drill-down with retry and dead-letter, in a real browser against the public API.

const CASE = readFileSync(join(import.meta.dir, "../fixtures/cmmn/console-case.cmmn"), "utf8");
const REVIEW_FORM = { fields: [{ key: "verdict", type: "text", label: "Verdict", required: true }] };

type User = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let tenant: { id: string; slug: string };
let worker: User;
let manager: User;
let outsider: User;
let instanceId = "";

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
const failedJobs = async () =>
  (await (await s.req("GET", "/api/a/instances/failed-jobs", { token: manager.token })).json()) as {
    id: string;
    instanceId: string;
    state: string;
    retries: number;
  }[];

/** A page already signed in as `user` in the tenant (the session the login and tenant pages leave). */
async function pageAs(user: User, width = 1200) {
  const page = await web.browser.newPage({ viewport: { width, height: 900 } });
  await page.addInitScript((v) => localStorage.setItem("pms.session", v), await consoleSession(s, user, tenant.slug));
  return page;
}
/** The classes bpmn-js gives a diagram element (the markers of the instance view). */
const classesOf = (page: Page, elementId: string) =>
  page.locator(`.djs-element[data-element-id="${elementId}"]`).first().getAttribute("class");

describeInBrowser("instance view and monitor actions in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    tenant = await createTenant(s, "views-a", sa);
    worker = await userInTenant(s, tenant, "USER", sa);
    manager = await userInTenant(s, tenant, "MANAGER", sa);
    outsider = await userInTenant(s, tenant, "USER", sa);
    const modeler = await userInTenant(s, tenant, "MODELER", sa);
    await deployBpmn(s, modeler.token, bpmnFixture("console-ops.bpmn"));
    await deployBpmn(s, modeler.token, CASE, "complaint.cmmn");
    const form = { key: "review", name: "Review", schema: REVIEW_FORM };
    expect(
      (await s.req("POST", "/api/a/definitions/console-ops/forms", { token: modeler.token, json: form })).status,
    ).toBe(201);
    web = await browserOn(s);
  }, 120_000); // Chromium and tenant provisioning are slow on a loaded machine (a full run)
  afterAll(() => web?.close());

  test("the start answer leads to the task, the task to its instance: diagram states, variables and history", async () => {
    const page = await pageAs(worker);
    await page.goto(`${web.url}/#/processes/console-ops`);
    await page.getByLabel(/Business key/).fill("CLM-1");
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByRole("heading", { name: "Review the claim" }).waitFor();
    await page.getByRole("link", { name: "View the instance" }).click();
    await page.getByRole("heading", { name: /CLM-1/ }).waitFor();
    instanceId = page.url().split("#/instances/")[1];
    await page.locator('.djs-element[data-element-id="review"]').first().waitFor();
    expect(await classesOf(page, "start")).toContain("step-done");
    expect(await classesOf(page, "review")).toContain("step-active");
    expect(await classesOf(page, "post")).not.toMatch(/step-/);
    expect(await page.getByRole("img", { name: /1 completed, 1 active, 0 failed/ }).count()).toBe(1);
    // the variables and the history: the start event done by me through the REST channel, the task still running
    expect(await page.locator(".variables th", { hasText: "starter" }).count()).toBe(1);
    const review = page.locator('.history tr[data-activity="review"]');
    expect(await review.locator("td").nth(5).textContent()).toBe("running");
    expect(await page.locator(".open-tasks a", { hasText: "Review the claim" }).count()).toBe(1);
    // an ordinary user gets no failed-jobs section (that route is the Managers')
    expect(await page.getByRole("heading", { name: "Failed jobs" }).count()).toBe(0);
    await shot(page, "10-instance-running");

    // back to the task through the open task's link, completed: the process moves on to its posting job
    await page.locator(".open-tasks a", { hasText: "Review the claim" }).click();
    await page.getByLabel(/Verdict/).fill("covered");
    await page.getByRole("button", { name: "Complete" }).click();
    await page.getByText(/Task “Review the claim” completed/).waitFor();
    await page.close();

    // another member who takes no part in the instance gets the API's refusal, not the instance
    const other = await pageAs(outsider);
    await other.goto(`${web.url}/#/instances/${instanceId}`);
    await other.getByRole("alert").waitFor();
    expect(await other.getByRole("alert").textContent()).toMatch(/not found/i);
    await other.close();
  });

  test("a Manager drills down to the failing step, dead-letters and retries its job, and sees the step failed", async () => {
    // one failed attempt: the job keeps retries (JOB_RETRYING)
    await s.platform.ports.processRuntime.runDueJobs();
    const [job] = await failedJobs();
    expect(job).toMatchObject({ instanceId, state: "EXECUTABLE" });

    const page = await pageAs(manager);
    await page.goto(`${web.url}/#/monitor`);
    await page.getByRole("heading", { name: "Monitor" }).waitFor();
    expect(await page.locator('[data-counter="runningInstances"] dd').textContent()).toBe("1");
    expect(await page.locator(".failed-jobs .job-state").allTextContents()).toEqual([
      expect.stringMatching(/^retrying/),
    ]);
    await shot(page, "11-monitor-failed-jobs");

    await page.getByRole("link", { name: "Claim review" }).click();
    const badge = page.locator('.djs-overlays .badge[data-activity="post"]');
    await badge.waitFor();
    expect(await badge.getAttribute("class")).toContain("JOB_RETRYING");
    await page.getByRole("button", { name: "Instances at Post to ledger" }).click();
    await page.getByRole("button", { name: "Dead-letter job at post of CLM-1" }).click();
    await page.getByRole("status").filter({ hasText: "moved to dead-letter" }).waitFor();
    await page.locator(".drill tr[data-instance] .badge.JOB_FAILED").waitFor();
    await page.locator('.djs-overlays .badge.JOB_FAILED[data-activity="post"]').waitFor();
    expect((await failedJobs())[0]).toMatchObject({ state: "DEADLETTER", retries: 0 });
    // dead-lettered: only retry is left
    expect(await page.getByRole("button", { name: "Dead-letter job at post of CLM-1" }).count()).toBe(0);
    await shot(page, "12-monitor-drill-deadletter");
    await page.getByRole("button", { name: "Retry job at post of CLM-1" }).click();
    await page.getByRole("status").filter({ hasText: "retried" }).waitFor();
    const retried = (await failedJobs())[0];
    expect(retried.state).toBe("EXECUTABLE");
    expect(retried.retries).toBeGreaterThan(0);

    // the drill-down's link opens the instance: completed steps, the failed one, its job with the same actions
    await page.locator(".drill").getByRole("link", { name: "CLM-1" }).click();
    await page.getByRole("heading", { name: /CLM-1/ }).waitFor();
    await page.locator('.djs-element[data-element-id="post"]').first().waitFor();
    expect(await classesOf(page, "review")).toContain("step-done");
    expect(await classesOf(page, "post")).toContain("step-failed");
    expect(await page.locator(".failed-jobs tr[data-job]").count()).toBe(1);
    const reviewRow = page.locator('.history tr[data-activity="review"]');
    // Who, by name (the fixture's first name), the e-mail on hover.
    expect(await reviewRow.locator("td.who-cell").textContent()).toMatch(/^U\d+$/);
    expect(await reviewRow.locator("td.who-cell span").getAttribute("title")).toBe(worker.email);
    expect(await reviewRow.locator("td").nth(3).textContent()).toBe("REST");
    expect(await page.locator(".variables th", { hasText: "verdict" }).count()).toBe(1);
    await shot(page, "13-instance-failed");
    await page.close();
  });

  test("a case shows its plan items with the actions the API offers; complete-stage only for a Manager", async () => {
    // started from the catalog: its first task is a group's, so the start page offers the instance instead
    const page = await pageAs(worker, 390);
    await page.goto(`${web.url}/#/processes/console-case`);
    await page.getByLabel(/Business key/).fill("CASE-7");
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByRole("status").filter({ hasText: "CASE-7" }).waitFor();
    await page.getByRole("link", { name: "Open the instance" }).click();
    await page.getByRole("heading", { name: "Plan items" }).waitFor();
    const caseId = page.url().split("#/instances/")[1];
    const state = (name: string) => page.locator(".plan-items tr", { hasText: name }).locator("td.state").textContent();
    expect(await state("Call the customer")).toBe("ENABLED");
    // no diagram for a case (bpmn-js draws BPMN only); no complete-stage for an ordinary user
    expect(await page.locator(".diagram").count()).toBe(0);
    expect(await page.getByRole("button", { name: /Complete stage/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Disable Call the customer" }).click();
    await page.getByRole("button", { name: "Enable Call the customer" }).waitFor();
    expect(await state("Call the customer")).toBe("DISABLED");
    await page.getByRole("button", { name: "Enable Call the customer" }).click();
    await page.getByRole("button", { name: "Start Call the customer" }).click();
    await page.locator(".open-tasks a", { hasText: "Call the customer" }).waitFor();
    expect(await page.locator(".open-tasks a", { hasText: "Check complaint" }).count()).toBe(1);
    expect(await state("Call the customer")).toBe("ACTIVE");
    await page.getByRole("button", { name: "Trigger Escalate" }).click();
    await page.getByRole("status").filter({ hasText: "Trigger: “Escalate” done." }).waitFor();
    // a fired event listener has ended: it leaves the live plan items once the page has read them again
    await page.locator(".plan-items tr", { hasText: "Escalate" }).waitFor({ state: "detached" });
    await shot(page, "14-case-plan-items-phone");
    await page.close();

    const mgr = await pageAs(manager);
    await mgr.goto(`${web.url}/#/instances/${caseId}`);
    await mgr.getByRole("button", { name: "Complete stage Handling" }).click();
    await mgr.locator(".milestones li", { hasText: "Handled" }).waitFor();
    expect(await mgr.locator(".facts .status").textContent()).toBe("COMPLETED");
    expect(await mgr.getByText("No live plan items.").count()).toBe(1);
    await shot(mgr, "15-case-completed");
    await mgr.close();
  });
});
