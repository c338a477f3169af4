import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, ConsoleMessage, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { startProcess } from "../harness/process";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";
import { LEAVE_BPMN, LEAVE_DMN } from "./console-story-leave";

// The whole small-firm story of issue 30 on a fresh service, in Chromium, one step after the other:
// 1. an Admin creates the process role "approvers" and gives it a member (the process roles page);
// 2. a Modeler deploys the leave-request decision (DMN) and process (BPMN: start form, decision, exclusive gateway
//    with conditions, a user task for the group with a form and a due date, a timer) as files on the Modeler page —
//    through the browser, the file deploy; drawing the same with the properties panel is console-modeler-panel-e2e's
//    part — and makes both forms in the browser's forms editor;
// 3. a member starts it from the console: the empty start form is refused (each error under its field, by label),
//    then it starts with values. Two more requests are started through the API (a short one, granted at once by the
//    decision, and one the Manager will cancel);
// 4. the member finds the task in the tasklist by sorting and searching, claims it in the row, sees the request on
//    the task page and completes it;
// 5. a Manager finds the instance by business key in the Monitor's instance search, runs its timer now, and cancels
//    the other request from its page;
// 6. the API shows that the process ran as drawn: the decision's route, the gateway's branch, the timer, the ends.

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
type U = Awaited<ReturnType<typeof userInTenant>>;
let admin: U, modeler: U, worker: U, manager: U;
const problems: string[] = [];
/** Chromium logs every 4xx answer as a console error: the one refusal the story provokes is counted, not a problem. */
const refusals: string[] = [];

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `story-${name}.png`), fullPage: true });
const api = async (who: U, path: string) => (await s.req("GET", `/api${path}`, { token: who.token })).json();

/** A page that records every console error or warning and uncaught error, signed in as `who`. */
async function signedIn(browser: Browser, who: U, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    if (/status of 400/.test(m.text()) && m.location().url.endsWith("/api/a/instances")) refusals.push(m.text());
    else problems.push(`${who.email} ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${who.email} pageerror: ${e.message}`));
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${web.url}/`);
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Tasks" }).waitFor();
  return page;
}

/** Adds a row to the forms editor: type, key, label, and whether it is required. */
async function addField(page: Page, i: number, type: string, key: string, label: string, required: boolean) {
  await page.getByRole("button", { name: "Add a field" }).click();
  await page.locator(`#fe-type-${i}`).selectOption(type);
  await page.locator(`#fe-key-${i}`).fill(key);
  await page.locator(`#fe-label-${i}`).fill(label);
  if (required) await page.locator(".field-row").nth(i).getByLabel("Required").check();
}

describeInBrowser("the small firm's leave request, end to end in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "small-firm", sa);
    [admin, modeler, worker, manager] = await Promise.all(
      (["ADMIN", "MODELER", "USER", "MANAGER"] as const).map((r) => userInTenant(s, t, r, sa)),
    );
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("an Admin sets up the approvers, a Modeler deploys the process and its forms", async () => {
    const a = await signedIn(web.browser, admin);
    await a.getByRole("link", { name: "Modeler" }).click();
    await a.getByRole("link", { name: /Process roles/ }).click();
    await a.getByLabel(/^Key/).fill("approvers");
    await a.getByLabel("Name", { exact: true }).fill("Approvers");
    await a.getByRole("button", { name: "Create role" }).click();
    const role = a.locator('article[data-role="approvers"]');
    await role.getByText("Nobody holds this role").waitFor();
    await role.getByLabel("Add a member to Approvers").selectOption(worker.id);
    await role.getByRole("button", { name: "Add" }).click();
    await role.locator(`li span[title="${worker.email}"]`).waitFor();
    await shot(a, "01-admin-role");
    await a.close();
    const roles = await api(admin, "/a/process-roles");
    expect(
      roles.map((r: { key: string; members: { userId: string }[] }) => [r.key, r.members.map((m) => m.userId)]),
    ).toEqual([["approvers", [worker.id]]]);

    const m = await signedIn(web.browser, modeler);
    await m.getByRole("link", { name: "Modeler" }).click();
    const file = m.getByLabel("BPMN, CMMN or DMN file");
    await file.setInputFiles({ name: "leave-route.dmn", mimeType: "text/xml", buffer: Buffer.from(LEAVE_DMN) });
    await m.getByRole("button", { name: "Deploy", exact: true }).click();
    await m.getByText("Decision leave-route deployed as version 1.").waitFor();
    await file.setInputFiles({ name: "leave.bpmn", mimeType: "text/xml", buffer: Buffer.from(LEAVE_BPMN) });
    await m.getByRole("button", { name: "Deploy", exact: true }).click();
    await m.getByText("BPMN leave deployed as version 1.").waitFor();
    await shot(m, "02-modeler-deployed");

    // The start form and the approval form, made in the forms editor.
    for (const [key, name, fields] of [
      [
        "leave-request",
        "Leave request",
        [
          ["integer", "days", "Days", true],
          ["text", "reason", "Reason", true],
        ],
      ],
      [
        "approve-form",
        "Approve leave",
        [
          ["checkbox", "approved", "Approved", false],
          ["textarea", "note", "Note to the employee", false],
        ],
      ],
    ] as const) {
      await m.goto(`${web.url}/#/modeler/definitions/leave`);
      await m.getByRole("link", { name: "New form" }).click();
      await m.getByLabel("Form key").fill(key);
      await m.getByLabel("Form name").fill(name);
      for (const [i, [type, k, label, required]] of fields.entries()) await addField(m, i, type, k, label, required);
      await shot(m, `03-form-${key}`);
      await m.getByRole("button", { name: "Create the form" }).click();
      await m.getByRole("heading", { name: new RegExp(`Form ${name}`) }).waitFor();
    }
    await m.close();
    const forms = await api(modeler, "/a/definitions/leave/forms");
    expect(forms.map((f: { key: string }) => f.key).sort()).toEqual(["approve-form", "leave-request"]);
    expect((await api(modeler, "/a/definitions/leave")).startFormKey).toBe("leave-request");
  });

  test("a member starts a request (refused empty, then started), claims and completes the approval", async () => {
    const w = await signedIn(web.browser, worker);
    await w.getByRole("link", { name: "Start a process" }).click();
    await w.getByRole("link", { name: /Leave request/ }).click();
    await w.getByLabel(/Business key/).fill("LEAVE-001");
    await w.getByRole("button", { name: "Start" }).click();
    // Each missing field's error under it; the summary names the fields by label, never the server's sentence.
    const alert = w.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Days");
    expect(await alert.textContent()).not.toContain("Campos");
    for (const label of ["Days", "Reason"]) {
      const field = w.locator(".field.invalid", { has: w.getByLabel(new RegExp(`^${label}`)) });
      expect((await field.locator(".error").textContent())?.length).toBeGreaterThan(0);
    }
    await shot(w, "04-start-refused");
    expect((await api(manager, "/a/instances?definitionKey=leave&state=all")).totalElements).toBe(0);
    await w.getByLabel(/^Days/).fill("5");
    await w.getByLabel(/^Reason/).fill("Family trip");
    await w.getByRole("button", { name: "Start" }).click();
    await w.getByRole("status").filter({ hasText: "Started with business key LEAVE-001" }).waitFor();
    await shot(w, "05-started");

    // Two more requests through the API: a short one (the decision grants it) and one the Manager will cancel.
    await startProcess(s, worker.token, {
      definitionKey: "leave",
      businessKey: "LEAVE-002",
      variables: { days: 1, reason: "Dentist" },
    });
    s.clock.advance(60_000); // the service's clock is the test's: a minute later, so the two tasks sort apart
    await startProcess(s, worker.token, {
      definitionKey: "leave",
      businessKey: "LEAVE-003",
      variables: { days: 4, reason: "Moving house" },
    });

    // The tasklist: both long requests wait for the approvers; sorted by due date, searched by business key.
    await w.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click();
    await w.getByText("2 tasks", { exact: true }).waitFor();
    // Newest first puts the later request first; due soonest the earlier one (both due three days after their start).
    const firstRow = (key: string) =>
      w.waitForFunction((k) => document.querySelector(".task-row")?.textContent?.includes(k), key);
    await firstRow("LEAVE-003");
    await w.getByLabel("Sort by").selectOption("due");
    await firstRow("LEAVE-001");
    await w.getByLabel("Search").fill("leave-001");
    await w.getByText("1 task", { exact: true }).waitFor();
    const row = w.locator(".task-row");
    expect(await row.textContent()).toContain("LEAVE-001");
    await w.getByRole("button", { name: "Claim Approve leave" }).click();
    await w.getByRole("button", { name: "Unclaim Approve leave" }).waitFor();
    await shot(w, "06-tasklist-claimed");
    await row.getByRole("link", { name: "Approve leave" }).click();

    // The task page: the case at a glance — the request by label, who started it, the history so far.
    await w.getByRole("heading", { name: "Approve leave" }).waitFor();
    const request = w.locator("table.case-data", { hasText: "The request (start form)" });
    await request.waitFor();
    expect(await request.locator("tr", { hasText: "Days" }).locator("td").textContent()).toBe("5");
    expect(await request.locator("tr", { hasText: "Reason" }).locator("td").textContent()).toBe("Family trip");
    await w.locator(".case .history tr[data-activity='decide']").waitFor();
    expect(await w.locator(".case dd", { hasText: "by" }).textContent()).toContain("me");
    await w.getByLabel("Approved").check();
    await w.getByLabel("Note to the employee").fill("Enjoy the trip");
    await shot(w, "07-task-page");
    await w.getByRole("button", { name: "Complete" }).click();
    await w.getByText("Task “Approve leave” completed.").waitFor();
    await w.close();
  });

  test("a Manager finds the request by business key, runs its timer now and cancels another request", async () => {
    const m = await signedIn(web.browser, manager);
    await m.getByRole("link", { name: "Monitor" }).click();
    const card = m.locator('.card[data-process="leave"]');
    await card.locator(".running", { hasText: "2 running" }).waitFor();
    await card.click();
    const search = m.getByRole("search", { name: "Search instances" });
    await search.getByLabel("Business key starts with").fill("LEAVE-001");
    await search.getByRole("button", { name: "Search" }).click();
    await m.getByText("1 instance", { exact: true }).waitFor();
    await shot(m, "08-cockpit-search");
    await m.locator("table.instances").getByRole("link", { name: "LEAVE-001" }).click();
    await m.getByRole("heading", { name: /LEAVE-001/ }).waitFor();
    // Waiting at the timer; "Run now" fires it as if due and the request ends.
    await m.getByRole("button", { name: "Run job at wait now" }).click();
    await m.getByRole("status").filter({ hasText: "Job at wait ran." }).waitFor();
    await shot(m, "09-instance-timer-ran");

    await m.goto(`${web.url}/#/monitor/leave`);
    await search.getByLabel("Business key starts with").fill("LEAVE-003");
    await search.getByRole("button", { name: "Search" }).click();
    await m.getByText("1 instance", { exact: true }).waitFor();
    await m.locator("table.instances").getByRole("link", { name: "LEAVE-003" }).click();
    await m.getByRole("heading", { name: /LEAVE-003/ }).waitFor();
    await m.getByRole("button", { name: "Cancel the instance" }).click();
    await m.getByText("LEAVE-003 cancelled.").waitFor();
    await m.getByRole("button", { name: "Cancel the instance" }).waitFor({ state: "detached" });
    await shot(m, "10-instance-cancelled");
    await m.close();

    // The process ran as drawn: the decision routed 5 days to the approvers and 1 day to the end at once.
    const all = (await api(manager, "/a/instances?definitionKey=leave&state=all")).content as {
      id: string;
      businessKey: string;
      state: string;
    }[];
    const byKey = Object.fromEntries(all.map((i) => [i.businessKey, i]));
    const history = async (key: string) =>
      (await api(manager, `/a/history/instances/${byKey[key].id}/activities`)) as {
        activityId: string;
        activityType: string;
        whoUser: { email: string } | null;
      }[];
    // The steps, without the audit rows of jobs run by hand.
    const steps = async (key: string) =>
      (await history(key)).filter((a) => a.activityType !== "jobExecution").map((a) => a.activityId);
    const vars = async (key: string) => (await api(manager, `/a/instances/${byKey[key].id}`)).variables;
    expect(await steps("LEAVE-001")).toEqual(["start", "decide", "gw", "approve", "wait", "endApproved"]);
    // The timer run by hand is in the history, by the Manager's name.
    const ran = (await history("LEAVE-001")).find((a) => a.activityType === "jobExecution");
    expect(ran).toMatchObject({ activityId: "wait", whoUser: { email: manager.email } });
    expect(await vars("LEAVE-001")).toMatchObject({
      days: 5,
      route: "manager",
      approved: true,
      note: "Enjoy the trip",
    });
    expect(await steps("LEAVE-002")).toEqual(["start", "decide", "gw", "endAuto"]);
    expect((await vars("LEAVE-002")).route).toBe("auto");
    expect(Object.fromEntries(all.map((i) => [i.businessKey, i.state]))).toEqual({
      "LEAVE-001": "COMPLETED",
      "LEAVE-002": "COMPLETED",
      "LEAVE-003": "CANCELLED",
    });
    const task = (await api(manager, "/a/tasks/completed")).find(
      (t: { businessKey: string }) => t.businessKey === "LEAVE-001",
    );
    expect(task).toMatchObject({ candidateGroups: ["approvers"], completedBy: worker.id });
    expect(task.dueDate).not.toBeNull();
    expect(problems).toEqual([]);
    expect(refusals).toHaveLength(1); // the empty start form, refused once
  });
});
