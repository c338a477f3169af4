import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saTenantToken, saToken, userInTenant } from "../harness/fixtures";
import { startFakeOpenAi, type FakeOpenAi } from "../harness/openai-server";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";
import { browserOn, describeInBrowser, consoleSession, listen, SCREENSHOTS } from "../harness/browser";

// The task page's extras in a real browser: AI suggestions (a conflict is never applied without the person's
// choice), the instance's files (upload, replace, earlier versions, per the attachment policy), delegate, comments.

const FORM = {
  fields: [
    { key: "verdict", type: "text", label: "Verdict" },
    { key: "amount", type: "number", label: "Amount" },
    { key: "category", type: "select", label: "Category", options: ["car", "home"] },
  ],
};

type User = Awaited<ReturnType<typeof userInTenant>>;
type Tenant = { id: string; slug: string };
let ai: FakeOpenAi;
let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let tenant: Tenant;
let worker: User;
let colleague: User;
let outsider: User;
let modeler: User;

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

async function pageAs(srv: TestServer, url: string, user: User, t: Tenant, width = 390) {
  const page = await web.browser.newPage({ viewport: { width, height: 900 } });
  await page.addInitScript((v) => localStorage.setItem("pms.session", v), await consoleSession(srv, user, t.slug));
  return { page, open: (hash: string) => page.goto(`${url}/#${hash}`) };
}

/** Deploys the claim process with its review form in `t`; `token` is a Modeler's. */
async function claimProcess(srv: TestServer, token: string) {
  await deployBpmn(srv, token, bpmnFixture("console-ops.bpmn"));
  const body = { key: "review", name: "Review", schema: FORM };
  expect((await srv.req("POST", "/api/a/definitions/console-ops/forms", { token, json: body })).status).toBe(201);
}

describeInBrowser("task page extras in headless Chromium", () => {
  beforeAll(async () => {
    ai = startFakeOpenAi();
    s = await startTestServer({ env: { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat" } });
    const sa = await saToken(s);
    tenant = await createTenant(s, "extras-a", sa);
    expect(
      (await s.req("PUT", `/api/admin/tenants/${tenant.id}/ai-quota`, { token: sa, json: { monthlyTokens: 1e6 } }))
        .status,
    ).toBe(200);
    [worker, colleague, outsider, modeler] = await Promise.all(
      (["USER", "USER", "USER", "MODELER"] as const).map((r) => userInTenant(s, tenant, r, sa)),
    );
    await claimProcess(s, modeler.token);
    // The attachment policy's default lets anyone holding a role in the process work with its files.
    const role = await (
      await s.req("POST", "/api/a/process-roles", {
        token: modeler.token,
        json: { processKey: "console-ops", key: "claims", name: "Claims" },
      })
    ).json();
    for (const u of [worker, colleague])
      await s.req("POST", `/api/a/process-roles/${role.id}/members`, { token: modeler.token, json: { userId: u.id } });
    const global = await s.req("POST", "/api/a/document-types?isGlobal=true", {
      token: await saTenantToken(s, tenant),
      json: { name: "Receipt" },
    });
    expect(global.status).toBe(201);
    web = await browserOn(s);
  }, 120_000); // Chromium and tenant provisioning are slow on a loaded machine (a full run)
  afterAll(async () => {
    await web?.close();
    ai?.stop();
  });

  test("AI suggestions: each with its reason; a conflicting one waits for the person's choice per field", async () => {
    const started = await startProcess(s, worker.token, { definitionKey: "console-ops", businessKey: "CLM-2" });
    const { page, open } = await pageAs(s, web.url, worker, tenant);
    await open(`/tasks/${started.activeTasks[0].id}`);
    await page.getByLabel("Verdict", { exact: true }).fill("partial");
    await page.getByLabel("Amount", { exact: true }).fill("100");
    ai.script.push({
      content: JSON.stringify({
        suggestions: [
          { field: "verdict", value: "covered", reason: "The policy covers the damage." },
          { field: "amount", value: 250, reason: "The invoice says 250." },
          { field: "category", value: "car", reason: "The claim is about a car." },
        ],
      }),
    });
    await page.getByRole("button", { name: "Suggest values (AI)" }).click();
    await page.getByText("The invoice says 250.").waitFor();
    // the draft on screen reached the model
    expect(JSON.stringify(ai.calls.at(-1)?.body.messages)).toContain("partial");
    // nothing applied on its own: the conflicting fields keep what was typed, the free one is offered
    expect(await page.getByLabel("Amount", { exact: true }).inputValue()).toBe("100");
    expect(await page.getByLabel("Category", { exact: true }).inputValue()).toBe("");
    expect(await page.locator(".suggestions li.conflict").count()).toBe(2);
    await shot(page, "16-ai-suggestions-phone");
    await page.getByRole("button", { name: "Apply to Category" }).click();
    expect(await page.getByLabel("Category", { exact: true }).inputValue()).toBe("car");
    await page.getByRole("button", { name: "Use suggestion for Amount" }).click();
    expect(await page.getByLabel("Amount", { exact: true }).inputValue()).toBe("250");
    await page.getByRole("button", { name: "Keep current Verdict" }).click();
    expect(await page.getByLabel("Verdict", { exact: true }).inputValue()).toBe("partial");
    expect(await page.locator(".suggestions li .muted").allTextContents()).toEqual([
      "Kept the current value.",
      "Applied.",
      "Applied.",
    ]);

    // a comment, then completion: the process holds the chosen values, typed as numbers where the field says so
    await page.getByLabel("Add a comment").fill("Suggested amount checked against the invoice.");
    await page.getByRole("button", { name: "Comment" }).click();
    await page.locator(".comments li", { hasText: "checked against the invoice" }).waitFor();
    await page.getByRole("button", { name: "Complete" }).click();
    await page.getByText(/Task “Review the claim” completed/).waitFor();
    const vars = (await (await s.req("GET", `/api/a/instances/${started.id}`, { token: worker.token })).json())
      .variables;
    expect(vars).toMatchObject({ verdict: "partial", amount: 250, category: "car" });
    await page.close();
  });

  test("files of the instance: upload with a document type, replace, earlier versions and their download", async () => {
    const started = await startProcess(s, worker.token, { definitionKey: "console-ops", businessKey: "CLM-3" });
    const { page, open } = await pageAs(s, web.url, worker, tenant);
    await open(`/tasks/${started.activeTasks[0].id}`);
    await page.getByText("No files yet.").waitFor();
    await page
      .getByLabel("Add a file")
      .setInputFiles({ name: "claim.txt", mimeType: "text/plain", buffer: Buffer.from("v1") });
    await page.getByLabel(/Document type/).selectOption({ label: "Receipt" });
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByRole("status").filter({ hasText: "claim.txt attached." }).waitFor();
    expect(await page.locator('.attachment[data-file="claim.txt"]').textContent()).toContain("Receipt");

    await page.getByLabel("Replace claim.txt").setInputFiles({
      name: "claim-v2.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("second version"),
    });
    await page.getByRole("status").filter({ hasText: "replaced by claim-v2.txt (version 2)" }).waitFor();
    // the listing holds the current version only; the first is among the earlier versions
    expect(await page.locator(".attachment").count()).toBe(1);
    await page.getByRole("button", { name: "Show earlier versions of claim-v2.txt" }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download version 1 of claim.txt" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("claim.txt");
    expect(readFileSync((await download.path()) as string, "utf8")).toBe("v1");
    await shot(page, "17-task-files-phone");
    await page.close();

    // someone with no role in the process reaches none of its files; FORM_ONLY closes the upload, not replace
    const other = await pageAs(s, web.url, outsider, tenant);
    await s.req("POST", `/api/a/tasks/${started.activeTasks[0].id}/delegate`, {
      token: worker.token,
      json: { userId: outsider.id },
    });
    await other.open(`/tasks/${started.activeTasks[0].id}`);
    await other.page.getByText("Your process roles do not let you see this process's files.").waitFor();
    await other.page.close();
    const policy = { uploadMode: "FORM_ONLY", uploadRoles: [], previewRoles: [], replaceRoles: [] };
    const put = await s.req("PUT", "/api/a/definitions/console-ops/config", {
      token: modeler.token,
      json: { attachmentPolicy: policy },
    });
    expect(put.status).toBe(200);
    // the instance view lists the same files: the upload is gone, replace is still offered (FORM_ONLY allows it)
    const again = await pageAs(s, web.url, worker, tenant, 1000);
    await again.open(`/instances/${started.id}`);
    await again.page.getByText("Adding files here is not open to you").waitFor();
    expect(await again.page.getByLabel("Add a file").count()).toBe(0);
    expect(await again.page.getByLabel("Replace claim-v2.txt").count()).toBe(1);
    await again.page.close();
    await s.req("PUT", "/api/a/definitions/console-ops/config", {
      token: modeler.token,
      json: { attachmentPolicy: { ...policy, uploadMode: "AD_HOC" } },
    });
  });

  test("delegate: the assignee hands the task to a colleague of the process", async () => {
    const started = await startProcess(s, worker.token, { definitionKey: "console-ops", businessKey: "CLM-4" });
    const taskId = started.activeTasks[0].id;
    const { page, open } = await pageAs(s, web.url, worker, tenant);
    await open(`/tasks/${taskId}`);
    await page.getByLabel("Delegate to").selectOption(colleague.id);
    await shot(page, "18-task-delegate-phone");
    await page.getByRole("button", { name: "Delegate", exact: true }).click();
    await page.getByText(/Task “Review the claim” delegated to/).waitFor();
    const task = await (await s.req("GET", `/api/a/tasks/${taskId}`, { token: colleague.token })).json();
    expect(task.assignee).toBe(colleague.id);
    // no longer the worker's: gone from the inbox (the worker is no candidate either)
    await page.getByText("No tasks.").waitFor();
    await page.close();
  });

  test("with no active model the task page offers no suggestions (the detail's aiSuggestAvailable is false)", async () => {
    const bare = await startTestServer();
    const listener = listen(bare);
    try {
      const sa = await saToken(bare);
      const t = await createTenant(bare, "extras-bare", sa);
      const [user, mod] = await Promise.all([userInTenant(bare, t, "USER", sa), userInTenant(bare, t, "MODELER", sa)]);
      await claimProcess(bare, mod.token);
      const started = await startProcess(bare, user.token, { definitionKey: "console-ops" });
      const { page, open } = await pageAs(bare, listener.url, user, t, 1000);
      await open(`/tasks/${started.activeTasks[0].id}`);
      await page.getByRole("button", { name: "Complete" }).waitFor();
      expect(await page.getByRole("button", { name: "Suggest values (AI)" }).count()).toBe(0);
      expect(await page.getByRole("heading", { name: "Suggestions" }).count()).toBe(0);
      await page.close();
    } finally {
      listener.stop();
      await bare.close();
    }
  });
});
