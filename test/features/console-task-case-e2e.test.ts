import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { ConsoleMessage } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";

// The task page shows the case at a glance (issue 30): the request by its start form's labels, each earlier task of
// the case with who completed it and its form's data, the history, and people by name everywhere (comments, files,
// history), the e-mail on hover.

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
type U = Awaited<ReturnType<typeof userInTenant>>;
let worker: U, colleague: U, modeler: U, manager: U;

const form = (key: string, name: string, fields: unknown[]) => ({ key, name, schema: { fields } });

describeInBrowser("the task page's case in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "task-case", sa);
    [worker, colleague, modeler, manager] = await Promise.all(
      (["USER", "USER", "MODELER", "MANAGER"] as const).map((r) => userInTenant(s, t, r, sa)),
    );
    // Both hold a role in the process: the attachment policy's default opens its files to them.
    const role = await (
      await s.req("POST", "/api/a/process-roles", {
        token: modeler.token,
        json: { processKey: "claim", key: "clerks", name: "Clerks" },
      })
    ).json();
    for (const u of [worker, colleague])
      await s.req("POST", `/api/a/process-roles/${role.id}/members`, { token: modeler.token, json: { userId: u.id } });
    await deployBpmn(
      s,
      modeler.token,
      `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <process id="claim" name="Claim" isExecutable="true">
    <startEvent id="s" camunda:formKey="claim-start"/>
    <userTask id="review" name="Review the claim" camunda:assignee="${colleague.id}" camunda:formKey="review-form"/>
    <userTask id="pay" name="Pay the claim" camunda:assignee="${worker.id}" camunda:formKey="pay-form"/>
    <endEvent id="e"/>
    <sequenceFlow id="f0" sourceRef="s" targetRef="review"/>
    <sequenceFlow id="f1" sourceRef="review" targetRef="pay"/>
    <sequenceFlow id="f2" sourceRef="pay" targetRef="e"/>
  </process>
</definitions>`,
      "claim.bpmn",
    );
    for (const f of [
      form("claim-start", "Claim", [
        { key: "amount", type: "number", label: "Amount claimed", required: true },
        { key: "what", type: "text", label: "What happened" },
      ]),
      form("review-form", "Review", [
        { key: "verdict", type: "select", label: "Verdict", options: ["covered", "refused"] },
        { key: "remark", type: "textarea", label: "Reviewer's remark" },
      ]),
      form("pay-form", "Pay", [{ key: "paid", type: "checkbox", label: "Paid" }]),
    ])
      expect((await s.req("POST", "/api/a/definitions/claim/forms", { token: modeler.token, json: f })).status).toBe(
        201,
      );
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("the second task shows the request, the first task's data and who did it, files and comments by name", async () => {
    const inst = await startProcess(s, worker.token, {
      definitionKey: "claim",
      businessKey: "CLM-1",
      variables: { amount: 1200, what: "Hail on the roof" },
    });
    const tasksOf = async () =>
      (await (await s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: manager.token })).json()) as {
        id: string;
        activityId: string;
      }[];
    const [review] = await tasksOf();
    const f = new FormData();
    f.append("file", new Blob(["photo"], { type: "text/plain" }), "roof.txt");
    f.append("entityType", "PROCESS_INSTANCE");
    f.append("entityId", inst.id);
    expect((await s.req("POST", "/api/a/attachments", { token: colleague.token, body: f })).status).toBe(201);
    const done = await s.req("POST", `/api/a/tasks/${review.id}/complete`, {
      token: colleague.token,
      json: { variables: { verdict: "covered", remark: "Photos match the report" } },
    });
    expect(done.status).toBe(200);
    const [pay] = await tasksOf();
    expect(pay.activityId).toBe("pay");
    await s.req("POST", `/api/a/tasks/${pay.id}/comments`, {
      token: manager.token,
      json: { message: "Urgent, please" },
    });

    const page = await web.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on("console", (m: ConsoleMessage) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${web.url}/`);
    await page.getByLabel("E-mail").fill(worker.email);
    await page.getByLabel("Password").fill(worker.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Tasks" }).waitFor();
    await page.goto(`${web.url}/#/tasks/${pay.id}`);
    await page.getByRole("heading", { name: "Pay the claim" }).waitFor();

    // The request, by the start form's labels.
    const request = page.locator("table.case-data", { hasText: "The request (start form)" });
    await request.waitFor();
    expect(await request.locator("tr", { hasText: "Amount claimed" }).locator("td").textContent()).toBe("1200");
    expect(await request.locator("tr", { hasText: "What happened" }).locator("td").textContent()).toBe(
      "Hail on the roof",
    );
    // The earlier task: who completed it (by name, e-mail on hover) and its form's data by label.
    const earlier = page.locator(`.earlier-task[data-task="${review.id}"]`);
    await earlier.getByRole("heading", { name: "Review the claim" }).waitFor();
    expect(await earlier.locator(`span.person[title="${colleague.email}"]`).textContent()).toMatch(/^U\d+$/);
    expect(await earlier.locator("tr", { hasText: "Verdict" }).locator("td").textContent()).toBe("covered");
    expect(await earlier.locator("tr", { hasText: "Reviewer's remark" }).locator("td").textContent()).toBe(
      "Photos match the report",
    );
    // Nothing of the forms is repeated under the other data.
    expect(await page.locator("table.case-data", { hasText: "Other data" }).count()).toBe(0);
    // The history's Who, the file's uploader and the comment's author: names, with the e-mail on hover.
    const reviewRow = page.locator('.case .history tr[data-activity="review"]');
    expect(await reviewRow.locator(`td.who-cell span[title="${colleague.email}"]`).textContent()).toMatch(/^U\d+$/);
    const file = page.locator('.attachment[data-file="roof.txt"]');
    await file.waitFor();
    expect(await file.locator(`span.person[title="${colleague.email}"]`).count()).toBe(1);
    const comment = page.locator(".comments li", { hasText: "Urgent, please" });
    await comment.waitFor();
    expect(await comment.locator(`span.person[title="${manager.email}"]`).textContent()).toMatch(/^U\d+$/);
    expect(await page.locator("body").textContent()).not.toContain(colleague.id);
    await page.screenshot({ path: join(SCREENSHOTS, "story-11-task-case.png"), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
  });
});
