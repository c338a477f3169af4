import { toPortuguese } from "../harness/console-i18n";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";
import { signedInPage } from "../harness/console-page";
import { type FakeOpenAi, startFakeOpenAi } from "../harness/openai-server";
import { connectInbox, startTestImap, type TestImap } from "../harness/imap";
import { englishIn, ids, MAIN_TEXT, PAGES } from "./console-i18n-settings-pages";

// Issue 30, the settings area in Portuguese (Brazil): an Admin switches the header's language to Português and visits
// every company settings page (lists, and the detail pages of a webhook, a robot, a process, a CMS collection, a
// knowledge base and an agent). Each page shows its heading and form labels in Portuguese, and no English text of the
// settings or common catalogs is left in the page's main region. A screenshot per page under test-results/.

let s: TestServer;
let ai: FakeOpenAi;
let imap: TestImap;
let web: Awaited<ReturnType<typeof browserOn>>;
let admin: Awaited<ReturnType<typeof userInTenant>>;

const PROCESS = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="reembolso" name="Reembolso" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Aprovar"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

describeInBrowser("the settings pages in Portuguese (Brazil) in headless Chromium", () => {
  beforeAll(async () => {
    ai = startFakeOpenAi();
    imap = await startTestImap();
    s = await startTestServer({
      env: {
        AI_BASE_URL: ai.url,
        AI_MODEL: "fake-chat",
        AI_EMBEDDING_MODEL: "fake-embed",
        WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1",
      },
    });
    const sa = await saToken(s);
    const tenant = await createTenant(s, "console-i18n-settings", sa);
    admin = await userInTenant(s, tenant, "ADMIN", sa);
    const post = async (path: string, json: unknown) => {
      const res = await s.req("POST", `/api/a/${path}`, { token: admin.token, json });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };
    ids.webhook = (await post("webhooks", { url: "http://127.0.0.1:9/gancho", events: ["task.created"] })).id;
    await post("robots", {
      key: "leitor",
      name: "Leitor",
      parameters: [{ name: "token", type: "string", required: true, secret: true }],
    });
    await deployBpmn(s, admin.token, PROCESS);
    await post("variables", { name: "ERP_URL", value: "https://erp.exemplo.com.br", secret: false });
    const fields = [{ name: "sku", type: "text", required: true }];
    ids.collection = (await post("cms/collections", { name: "Precos", confidentiality: "PUBLIC", fields })).id;
    const rows = [{ value: "br", label: "Brasil" }];
    await post("forms/datasources", { key: "paises", name: "Paises", kind: "STATIC", config: { rows } });
    await post("document-types", { name: "Nota fiscal" });
    ids.base = (await post("knowledge-bases", { name: "Manual" })).id;
    await post("agents", { key: "triagem", name: "Triagem", modelId: "fake-chat", instructions: "Classifique." });
    await connectInbox(s, admin.token, imap, "Pedidos");
    const match = { subjectContains: "Reembolso" };
    await post("mail-rules", { name: "Reembolsos", definitionKey: "reembolso", match });
    web = await browserOn(s);
  });
  afterAll(async () => {
    await web?.close();
    await imap?.close();
    ai?.stop();
  });

  test("an Admin switches to Português: every settings page's heading, labels and menu in Portuguese, no English left", async () => {
    const cp = await signedInPage(web.browser, web.url, admin, "Tasks");
    const { page } = cp;
    await toPortuguese(page);
    await page.getByRole("link", { name: "Configurações", exact: true }).click();
    // The settings menu: its groups and pages in Portuguese.
    const menu = page.getByRole("navigation", { name: "Configurações da empresa" });
    await menu.getByRole("link", { name: "Chaves de API" }).waitFor();
    const menuText = (await menu.textContent()) ?? "";
    for (const label of [
      "Acesso",
      "Processos",
      "Dados",
      "IA",
      "Robôs",
      "Fontes de dados",
      "Caixas de entrada",
      "Uso de IA",
    ])
      expect(menuText).toContain(label);
    expect(englishIn(menuText)).toEqual([]);

    for (const p of PAGES) {
      await page.goto(`${web.url}/#/settings/${p.path()}`);
      await page.getByRole("heading", { name: p.heading }).first().waitFor();
      await p.act?.(page);
      // The page's data arrives after its heading: read the region again until nothing is loading and every expected
      // text is there.
      const skip = ["code", p.serverText].filter(Boolean).join(", ");
      let main = "";
      const ready = async () => {
        const busy = await page.locator("main [aria-busy=true]").count();
        main = await page.evaluate(MAIN_TEXT, skip);
        return busy === 0 && !main.includes("Loading…") && p.texts.every((x) => main.includes(x));
      };
      for (let i = 0; i < 100 && !(await ready()); i++) await page.waitForTimeout(100);
      expect({ page: p.name, missing: p.texts.filter((x) => !main.includes(x)) }).toEqual({
        page: p.name,
        missing: [],
      });
      expect({ page: p.name, english: englishIn(main) }).toEqual({ page: p.name, english: [] });
      await page.screenshot({ path: join(SCREENSHOTS, "..", `i18n-settings-${p.name}.png`), fullPage: true });
    }
    // A form label reached by its Portuguese name, and a confirmation asked in Portuguese.
    await page.goto(`${web.url}/#/settings/variables`);
    await page.getByLabel("Nome").fill("PRAZO_DIAS");
    await page.getByLabel("Valor").fill("5");
    await page.getByRole("button", { name: "Criar variável" }).click();
    await page.getByText("Variável PRAZO_DIAS criada.").waitFor();
    cp.confirmAnswer = false;
    await page.getByRole("button", { name: "Excluir PRAZO_DIAS" }).click();
    expect(cp.asked.pop()).toBe(
      "Excluir a variável PRAZO_DIAS? Processos e robôs que a leem passam a não receber nada.",
    );
    expect(cp.problems).toEqual([]);
    await page.close();
  }, 120_000);
});
