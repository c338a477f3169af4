import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { browserOn, describeInBrowser } from "../harness/browser";
import { signedInPage } from "../harness/console-page";
import { rawMail, startTestImap, type TestImap } from "../harness/imap";
import { startTokenServer, type TestTokenServer } from "../harness/oauth-token-server";

// Mail in the browser: an Admin connects a password inbox and an OAuth2 one (real IMAP servers and a real token
// endpoint on 127.0.0.1), changes, disables and deletes them; a Modeler writes a rule and sees what the mail met.

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="mailorder" name="Mail order" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Handle order"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;
const CLIENT = { clientId: "console-mail-client", clientSecret: "client-s3cret-for-console" };

let s: TestServer;
let web: Awaited<ReturnType<typeof browserOn>>;
let imap: TestImap;
let oauthImap: TestImap;
let tokens: TestTokenServer;
type Member = Awaited<ReturnType<typeof userInTenant>>;
let admin: Member, modeler: Member;

const inboxes = async () =>
  (await (await s.req("GET", "/api/a/mail-inboxes", { token: admin.token })).json()) as {
    id: string;
    name: string;
    pollIntervalSeconds: number;
    enabled: boolean;
    authMethod: string;
    oauth: { tokenUrl: string } | null;
  }[];
const rules = async () =>
  (await (await s.req("GET", "/api/a/mail-rules", { token: modeler.token })).json()) as {
    name: string;
    enabled: boolean;
    definitionKey: string;
    match: { subjectContains: string | null };
    mapping: { subject: string | null };
  }[];

describeInBrowser("mail inboxes, rules and deliveries in headless Chromium", () => {
  beforeAll(async () => {
    imap = await startTestImap();
    oauthImap = await startTestImap("oauth@test.local", "unused-pass-1", { xoauth2: true });
    tokens = startTokenServer({ ...CLIENT, onToken: (t) => oauthImap.acceptAccessToken(t) });
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "console-mail", sa);
    admin = await userInTenant(s, t, "ADMIN", sa);
    modeler = await userInTenant(s, t, "MODELER", sa);
    await deployBpmn(s, modeler.token, MODEL);
    const put = (name: string, value: string, secret: boolean) =>
      s.req("PUT", `/api/a/variables/${name}`, { token: admin.token, json: { value, secret } });
    await put("MAIL_ALLOWED_PRIVATE_HOSTS", "127.0.0.1", false);
    await put("IMAP_PW", imap.password, true);
    await put("WRONG_PW", "not-the-password", true);
    web = await browserOn(s);
  });
  afterAll(async () => {
    await web?.close();
    await imap?.close();
    await oauthImap?.close();
    await tokens?.close();
  });

  test("an Admin connects a password inbox (a wrong password refused), changes and disables it", async () => {
    const cp = await signedInPage(web.browser, web.url, admin, "Tasks");
    const { page } = cp;
    await page.goto(`${web.url}/#/settings/mail-inboxes`);
    await page.getByText("No inboxes yet.").waitFor();
    const form = page.getByRole("form", { name: "New inbox" });
    await form.getByLabel("Name", { exact: true }).fill("Orders");
    await form.getByLabel("Account (user name)").fill(imap.user);
    await form.getByLabel("IMAP server").fill(imap.host);
    await form.getByLabel("Port").fill(String(imap.port));
    await form.getByLabel("Security").selectOption("NONE");
    await form.getByLabel("Password (a secret variable)").selectOption("WRONG_PW");
    await form.getByRole("button", { name: "Create inbox" }).click();
    await form.getByRole("alert").waitFor();
    expect(await inboxes()).toEqual([]);
    await form.getByLabel("Password (a secret variable)").selectOption("IMAP_PW");
    await form.getByRole("button", { name: "Create inbox" }).click();
    await page.getByText("Inbox Orders created").waitFor();
    await page.locator('tr[data-name="Orders"]').waitFor();
    expect(await inboxes()).toMatchObject([{ name: "Orders", authMethod: "PASSWORD", enabled: true }]);

    await page.getByRole("button", { name: "Change Orders" }).click();
    const change = page.getByRole("form", { name: "Change Orders" });
    await change.getByLabel("Read every (seconds)").fill("120");
    await change.getByRole("button", { name: "Save Orders" }).click();
    await page.getByText("Orders saved.").waitFor();
    expect((await inboxes())[0].pollIntervalSeconds).toBe(120);
    await page.getByRole("button", { name: "Disable Orders" }).click();
    await page.getByText("Orders disabled.").waitFor();
    expect((await inboxes())[0].enabled).toBe(false);
    await page.getByRole("button", { name: "Enable Orders" }).click();
    await page.getByText("Orders enabled.").waitFor();
    expect((await inboxes())[0].enabled).toBe(true);
    await cp.shot("50-mail-inboxes");
    expect(cp.problems).toEqual([]);
    expect(cp.refused).toHaveLength(1); // the wrong password, on purpose
    await page.close();
  });

  test("an OAuth2 inbox: client and refresh token typed once, tested against the token endpoint, secrets never shown", async () => {
    const cp = await signedInPage(web.browser, web.url, admin, "Tasks");
    const { page } = cp;
    await page.goto(`${web.url}/#/settings/mail-inboxes`);
    const form = page.getByRole("form", { name: "New inbox" });
    await form.getByLabel("Name", { exact: true }).fill("Shared (OAuth2)");
    await form.getByLabel("Account (user name)").fill(oauthImap.user);
    await form.getByLabel("Sign-in").selectOption("OAUTH2");
    await form.getByLabel("Provider", { exact: true }).selectOption("CUSTOM");
    await form.getByLabel("Client id").fill(CLIENT.clientId);
    await form.getByLabel("Client secret").fill(CLIENT.clientSecret);
    await form.getByLabel("Refresh token").fill(tokens.refreshToken);
    await form.getByLabel("Token URL").fill(tokens.url);
    await form.getByLabel("Scope (empty: the provider's)").fill("imap");
    await form.getByLabel("IMAP server (empty: the provider's)").fill(oauthImap.host);
    await form.getByLabel("Port").fill(String(oauthImap.port));
    await form.getByLabel("Security").selectOption("NONE");
    await cp.shot("51-mail-inbox-oauth-form");
    await form.getByRole("button", { name: "Create inbox" }).click();
    await page.getByText("Inbox Shared (OAuth2) created").waitFor();
    const row = page.locator('tr[data-name="Shared (OAuth2)"]');
    expect(await row.textContent()).toContain("OAuth2");
    expect(tokens.grants.length).toBeGreaterThan(0);
    const stored = (await inboxes()).find((i) => i.name === "Shared (OAuth2)");
    expect(stored).toMatchObject({ authMethod: "OAUTH2", oauth: { tokenUrl: tokens.url } });
    const html = await page.content();
    expect(html).not.toContain(CLIENT.clientSecret);
    // Changing it keeps the secrets when their fields stay empty: the server tests the stored ones again.
    await page.getByRole("button", { name: "Change Shared (OAuth2)" }).click();
    const change = page.getByRole("form", { name: "Change Shared (OAuth2)" });
    expect(await change.getByLabel("Client secret (empty: keep)").inputValue()).toBe("");
    await change.getByLabel("Folder").fill("INBOX");
    await change.getByLabel("Read every (seconds)").fill("300");
    await change.getByRole("button", { name: "Save Shared (OAuth2)" }).click();
    await page.getByText("Shared (OAuth2) saved.").waitFor();
    expect((await inboxes()).find((i) => i.name === "Shared (OAuth2)")?.pollIntervalSeconds).toBe(300);
    await page.getByRole("button", { name: "Delete Shared (OAuth2)" }).click();
    expect(cp.asked.pop()).toMatch(/Delete the inbox “Shared \(OAuth2\)”\?/);
    await row.waitFor({ state: "detached" });
    expect((await inboxes()).map((i) => i.name)).toEqual(["Orders"]);
    expect(cp.problems).toEqual([]);
    await page.close();
  });

  test("a Modeler writes a rule; a matching mail starts the process and shows on the deliveries page", async () => {
    const cp = await signedInPage(web.browser, web.url, modeler, "Tasks");
    const { page } = cp;
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "Mail rules" }).click();
    await page.getByText("No mail rules yet.").waitFor();
    const form = page.getByRole("form", { name: "New mail rule" });
    await form.getByLabel("Name", { exact: true }).fill("Orders by mail");
    await form.getByLabel("Starts the process").selectOption("mailorder");
    await form.getByLabel("Mail of inbox").selectOption({ label: "Orders" });
    await form.getByLabel("Subject contains").fill("Order");
    await form.getByLabel("Subject into variable").fill("mailSubject");
    await form.getByRole("button", { name: "Create rule" }).click();
    await page.getByText("Rule Orders by mail created.").waitFor();
    expect(await rules()).toMatchObject([
      {
        name: "Orders by mail",
        definitionKey: "mailorder",
        match: { subjectContains: "Order" },
        mapping: { subject: "mailSubject" },
      },
    ]);
    await cp.shot("52-mail-rules");

    await page.getByRole("link", { name: "Mail deliveries" }).click();
    await page.getByText("No mail read yet.").waitFor();
    await imap.append(
      rawMail({ messageId: "c1@customer.test", from: "ann@customer.test", subject: "Order 12 please" }),
    );
    await imap.append(rawMail({ messageId: "c2@customer.test", from: "bob@customer.test", subject: "Hello there" }));
    await s.platform.mailPoller.pollAll({ force: true });
    await page.reload();
    const started = page.locator('tr[data-subject="Order 12 please"]');
    await started.locator(".status", { hasText: "started" }).waitFor();
    await page.locator('tr[data-subject="Hello there"]').waitFor();
    await page.getByLabel("Outcome").selectOption("STARTED");
    await page.locator('tr[data-subject="Hello there"]').waitFor({ state: "detached" });
    await cp.shot("53-mail-deliveries");
    const sent = (await (await s.req("GET", "/api/a/mail-deliveries?outcome=STARTED", { token: modeler.token })).json())
      .content[0] as { instanceId: string; businessKey: string | null };
    const inst = await (await s.req("GET", `/api/a/instances/${sent.instanceId}`, { token: admin.token })).json();
    expect(inst.definitionKey).toBe("mailorder");
    // A Modeler takes no part in the started instance: no link that would lead to a 404.
    expect(await started.getByRole("link").count()).toBe(0);

    await page.goto(`${web.url}/#/settings/mail-rules`);
    await page.getByRole("button", { name: "Disable Orders by mail" }).click();
    await page.getByText("Orders by mail disabled.").waitFor();
    expect((await rules())[0].enabled).toBe(false);
    cp.confirmAnswer = false;
    await page.getByRole("button", { name: "Delete Orders by mail" }).click();
    expect(await rules()).toHaveLength(1);
    cp.confirmAnswer = true;
    await page.getByRole("button", { name: "Delete Orders by mail" }).click();
    await page.locator('tr[data-name="Orders by mail"]').waitFor({ state: "detached" });
    expect(await rules()).toEqual([]);
    // Mail inboxes are an Admin's: the Modeler has no entry for them.
    expect(await page.getByRole("link", { name: "Mail inboxes" }).count()).toBe(0);
    expect(cp.problems).toEqual([]);
    await page.close();
  });
});
