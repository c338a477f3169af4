import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";
import { browserOn, describeInBrowser, consoleSession, SCREENSHOTS } from "../harness/browser";

// The form renderer in a real browser: every field type of docs/forms.md, conditions, data sources, a file upload,
// and the types of the values that reach the process.

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let session: string;
let taskId: string;
let instanceId: string;
let adminId: string;
let docTypeId: string;

const form = () => ({
  fields: [
    { type: "heading", label: "Applicant" },
    { key: "name", type: "text", label: "Name", required: true },
    { key: "notes", type: "textarea", label: "Notes" },
    { key: "mail", type: "email", label: "Mail" },
    { key: "tel", type: "phone", label: "Tel" },
    { key: "num", type: "number", label: "Num" },
    { key: "qty", type: "integer", label: "Qty" },
    { key: "rate", type: "decimal", label: "Rate" },
    { key: "amount", type: "currency", label: "Amount", currency: "EUR" },
    { key: "day", type: "date", label: "Day" },
    { key: "at", type: "datetime", label: "At" },
    { key: "hour", type: "time", label: "Hour" },
    { key: "agree", type: "checkbox", label: "Agree", required: true },
    {
      key: "size",
      type: "select",
      label: "Size",
      options: [
        { value: 1, label: "Small" },
        { value: 2, label: "Large" },
      ],
    },
    { key: "color", type: "radio", label: "Color", options: ["red", "blue"] },
    { key: "tags", type: "multiselect", label: "Tags", options: ["a", "b", "c"] },
    {
      key: "country",
      type: "select",
      label: "Country",
      dataSource: "countries",
      valueField: "code",
      labelField: "name",
    },
    { key: "reviewer", type: "user", label: "Reviewer", processRole: "reviewers" },
    { key: "contract", type: "file", label: "Contract", documentTypeId: docTypeId },
    { key: "secret", type: "hidden", defaultValue: "h" },
    {
      type: "section",
      label: "Large amounts",
      visibleIf: "amount > 100",
      fields: [{ key: "why", type: "text", label: "Why", required: true }],
    },
    {
      key: "items",
      type: "table",
      label: "Items",
      columns: [
        { key: "sku", type: "text", label: "SKU", required: true },
        { key: "n", type: "integer", label: "N" },
      ],
    },
  ],
});

describeInBrowser("console form renderer in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "forms-a", sa);
    const admin = await userInTenant(s, t, "ADMIN", sa);
    adminId = admin.id;
    const auth = { token: admin.token };
    await deployBpmn(s, admin.token, bpmnFixture("console-types.bpmn"));
    docTypeId = (await (await s.req("POST", "/api/a/document-types", { ...auth, json: { name: "Contract" } })).json())
      .id;
    const rows = [
      { code: "PT", name: "Portugal" },
      { code: "ES", name: "Spain" },
    ];
    const ds = { key: "countries", name: "Countries", kind: "STATIC", config: { rows } };
    expect((await s.req("POST", "/api/a/forms/datasources", { ...auth, json: ds })).status).toBe(201);
    const role = await (
      await s.req("POST", "/api/a/process-roles", {
        ...auth,
        json: { processKey: "console-types", key: "reviewers", name: "Reviewers" },
      })
    ).json();
    await s.req("POST", `/api/a/process-roles/${role.id}/members`, { ...auth, json: { userId: admin.id } });
    const body = { key: "everything", name: "Everything", schema: form() };
    expect((await s.req("POST", "/api/a/definitions/console-types/forms", { ...auth, json: body })).status).toBe(201);
    const started = await startProcess(s, admin.token, { definitionKey: "console-types" });
    instanceId = started.id;
    taskId = started.activeTasks[0].id;
    session = await consoleSession(s, admin, t.slug);
    web = await browserOn(s);
  });
  afterAll(() => web?.close());

  test("every field type renders, parses and reaches the process with its type", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page.addInitScript((v) => localStorage.setItem("pms.session", v), session);
    await page.goto(`${web.url}/#/tasks/${taskId}`);
    await page.getByRole("heading", { name: "Applicant" }).waitFor();
    // required marks, the hidden field never shown, the section hidden until its condition holds
    expect(await page.locator(".req").count()).toBe(2);
    expect(await page.getByText("secret").count()).toBe(0);
    expect(await page.getByLabel(/^Why/).count()).toBe(0);
    // options from the data source and from the process role's members
    await page.locator("#f-country option", { hasText: "Portugal" }).waitFor({ state: "attached" });
    await page.locator("#f-reviewer option", { hasText: "@test.local" }).waitFor({ state: "attached" });

    await page.getByLabel(/^Name/).fill("Ana");
    await page.getByLabel("Notes", { exact: true }).fill("two\nlines");
    await page.getByLabel("Mail", { exact: true }).fill("ana@example.pt");
    await page.getByLabel("Tel", { exact: true }).fill("+351 912 345 678");
    // typed key by key: "3." must stay on screen on its way to "3.25"
    await page.getByLabel("Num", { exact: true }).pressSequentially("3.25");
    await page.getByLabel("Qty", { exact: true }).fill("7.5");
    await page.getByRole("button", { name: "Complete" }).click();
    expect(await page.locator(".field-integer .error").textContent()).toBe("must be a whole number");
    await page.getByLabel("Qty", { exact: true }).fill("7");
    await page.getByLabel("Rate", { exact: true }).pressSequentially("0,5");
    await page.getByLabel("Amount", { exact: true }).fill("500");
    await page.getByLabel(/^Why/).fill("a big order");
    await page.getByLabel("Day", { exact: true }).fill("2026-11-23");
    await page.getByLabel("At", { exact: true }).fill("2026-11-23T09:30");
    await page.getByLabel("Hour", { exact: true }).fill("09:30");
    await page.getByLabel(/^Agree/).check();
    await page.getByLabel("Size", { exact: true }).selectOption("2");
    await page.getByLabel("blue", { exact: true }).check();
    await page.getByLabel("Tags", { exact: true }).selectOption(["a", "c"]);
    await page.getByLabel("Country", { exact: true }).selectOption("ES");
    await page.getByLabel("Reviewer", { exact: true }).selectOption(adminId);
    await page
      .getByLabel("Contract")
      .setInputFiles({ name: "c.txt", mimeType: "text/plain", buffer: Buffer.from("contract") });
    await page.getByText(/attached/).waitFor();
    await page.getByRole("button", { name: "Add row" }).click();
    await page.getByLabel(/^SKU/).fill("X-1");
    await page.getByLabel(/^N$/).fill("4");
    await page.screenshot({ path: join(SCREENSHOTS, "09-all-field-types.png"), fullPage: true });
    await page.getByRole("button", { name: "Complete" }).click();
    await page.getByText(/completed/).waitFor();

    const detail = await (
      await s.req("GET", `/api/a/instances/${instanceId}`, { token: JSON.parse(session).accessToken })
    ).json();
    const v = detail.variables;
    expect(v).toMatchObject({
      name: "Ana",
      notes: "two\nlines",
      mail: "ana@example.pt",
      tel: "+351 912 345 678",
      num: 3.25,
      qty: 7,
      rate: 0.5,
      amount: 500,
      why: "a big order",
      day: "2026-11-23",
      hour: "09:30",
      agree: true,
      size: 2,
      color: "blue",
      tags: ["a", "c"],
      country: "ES",
      reviewer: adminId,
      secret: "h",
      items: [{ sku: "X-1", n: 4 }],
    });
    expect(new Date(v.at).getTime()).toBe(await page.evaluate(() => new Date("2026-11-23T09:30").getTime()));
    const file = await (
      await s.req("GET", `/api/a/attachments/${v.contract}`, { token: JSON.parse(session).accessToken })
    ).json();
    expect(file.documentTypeId).toBe(docTypeId);
    await page.close();
  });
});
