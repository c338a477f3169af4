import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import type { Page } from "playwright-core";
import { browserOn, describeInBrowser, SCREENSHOTS } from "../harness/browser";
import { signedInPage } from "../harness/console-page";
import { type FakeOpenAi, startFakeOpenAi } from "../harness/openai-server";
import { connectInbox, startTestImap, type TestImap } from "../harness/imap";
import { common } from "../../console/src/locales/pt-BR/common";
import { settings } from "../../console/src/locales/pt-BR/settings";

// Issue 30, the settings area in Portuguese (Brazil): an Admin switches the header's language to Português and visits
// every company settings page (lists, and the detail pages of a webhook, a robot, a process, a CMS collection, a
// knowledge base and an agent). Each page shows its heading and form labels in Portuguese, and no English text of the
// settings or common catalogs is left in the page's main region. A screenshot per page under test-results/.

let s: TestServer;
let ai: FakeOpenAi;
let imap: TestImap;
let web: Awaited<ReturnType<typeof browserOn>>;
let admin: Awaited<ReturnType<typeof userInTenant>>;
const ids = { webhook: "", collection: "", base: "" };

const PROCESS = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="reembolso" name="Reembolso" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Aprovar"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

/**
 * The English texts that must not be left on a Portuguese page: every catalog key whose translation differs, with no
 * placeholder, that is not itself a word of some Portuguese translation (e.g. "Data", which Portuguese uses for a date).
 */
const ptWords = new Set(
  Object.values({ ...common, ...settings })
    .join(" ")
    .split(/[^\p{L}]+/u),
);
const ENGLISH = Object.entries({ ...common, ...settings })
  .filter(
    ([en, pt]) => en !== pt && !en.includes("{") && en.length > 2 && !(en.split(" ").length === 1 && ptWords.has(en)),
  )
  .map(([en]) => en);
/**
 * What a reader meets in the page's main region: every text node (hidden options and screen-reader text included)
 * and the labelling attributes, one per line so that words of neighbouring elements never run together.
 */
const MAIN_TEXT = (serverText: string) => {
  const main = document.querySelector("main");
  if (!main) return "";
  const out: string[] = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (!serverText || !n.parentElement?.closest(serverText)) out.push(n.textContent ?? "");
  for (const el of main.querySelectorAll("[placeholder],[title],[aria-label],[alt]"))
    for (const a of ["placeholder", "title", "aria-label", "alt"]) out.push(el.getAttribute(a) ?? "");
  return out.join("\n");
};
const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const englishIn = (text: string) =>
  ENGLISH.filter((en) => new RegExp(`(?<![\\p{L}._-])${escape(en)}(?![\\p{L}_-])`, "u").test(text));

/**
 * Each page: its address under #/settings/, the Portuguese heading, other Portuguese texts it must show, and where it
 * shows text the server sends as it is (left out of the English check, as are identifiers in code elements).
 */
const PAGES: {
  name: string;
  path: () => string;
  heading: string;
  texts: string[];
  serverText?: string;
  /** What the reader does on the page before it is read (a choice that shows more of the form). */
  act?: (page: Page) => Promise<unknown>;
}[] = [
  {
    name: "api-keys",
    path: () => "api-keys",
    heading: "Chaves de API",
    texts: ["Nova chave", "Requisições por minuto (0 = ilimitado)", "Escopos", "leitura (GET)", "Criar chave"],
  },
  {
    name: "webhooks",
    path: () => "webhooks",
    heading: "Webhooks",
    texts: ["Novo webhook", "Eventos", "Criar webhook", "Webhooks desta empresa", "ativado", "Entregas"],
  },
  {
    name: "webhook-deliveries",
    path: () => `webhooks/${ids.webhook}`,
    heading: "Entregas",
    texts: ["Enviar um evento de teste", "Atualizar", "Todos", "Nenhuma entrega ainda."],
  },
  {
    name: "robots",
    path: () => "robots",
    heading: "Robôs",
    texts: ["Novo robô", "Chave (o tópico que os modelos indicam)", "Adicionar um parâmetro", "Robôs desta empresa"],
  },
  {
    name: "robot-config",
    path: () => "robots/leitor",
    heading: "Leitor",
    texts: ["Secreto: o valor é lido desta variável da empresa", "— não definido —", "Salvar configuração"],
  },
  {
    name: "processes",
    path: () => "processes",
    heading: "Configurações de processos",
    texts: ["Por processo: chave de negócio", "Última versão", "Reembolso"],
  },
  {
    name: "process-settings",
    path: () => "processes/reembolso",
    heading: "Configurações de reembolso",
    texts: [
      "Modelo da chave de negócio (vazio: o do sistema)",
      "Assistentes de IA (MCP) podem",
      "Variáveis de configuração",
      "Definir variável",
      "Documentos do processo",
      "Reindexar",
      "Vincular",
    ],
  },
  {
    name: "variables",
    path: () => "variables",
    heading: "Variáveis",
    texts: ["Nova variável", "Secreta (guardada cifrada, nunca mais exibida)", "Criar variável", "Última alteração"],
  },
  {
    name: "dmn-templates",
    path: () => "dmn-templates",
    heading: "Modelos DMN",
    texts: ["A plataforma ainda não oferece modelos DMN"],
  },
  {
    name: "delegates",
    path: () => "delegates",
    heading: "Delegates",
    texts: ["Implementações de tarefas de serviço embutidas"],
    serverText: "article.card > h2, article.card > p, article.card td:nth-child(4), ul.plain > li",
  },
  {
    name: "templates",
    path: () => "templates",
    heading: "Modelos de processo",
    texts: ["Processos prontos oferecidos pela plataforma"],
  },
  {
    name: "cms",
    path: () => "cms",
    heading: "Coleções do CMS",
    texts: ["Nova coleção", "Confidencialidade", "Criar coleção", "Registros", "PÚBLICO"],
  },
  {
    name: "cms-collection",
    path: () => `cms/${ids.collection}`,
    heading: "Precos",
    texts: [
      "Alterar a coleção",
      "Carregar registros",
      "Excluir todos os registros",
      "Novo registro",
      "Adicionar registro",
    ],
  },
  {
    name: "data-sources",
    path: () => "data-sources",
    heading: "Fontes de dados",
    texts: ["Nova fonte de dados", "Tipo de fonte", "linhas fixas", "Configuração (JSON)", "Testar", "FIXA"],
  },
  {
    name: "document-types",
    path: () => "document-types",
    heading: "Tipos de documento",
    texts: ["Novo tipo de documento", "Chave do processo (vazio: todos os processos)", "todos os processos", "ativo"],
  },
  {
    name: "knowledge",
    path: () => "knowledge",
    heading: "Bases de conhecimento",
    texts: ["Nova base de conhecimento", "Criar base de conhecimento", "Abrangência", "esta empresa"],
  },
  {
    name: "knowledge-base",
    path: () => `knowledge/${ids.base}`,
    heading: "Manual",
    texts: ["Trechos indexados", "Enviar um documento", "Arquivo PDF, TXT ou Markdown", "Teste uma pesquisa"],
  },
  {
    name: "agents",
    path: () => "agents",
    heading: "Agentes",
    texts: ["Novo agente", "Instruções", "Criar agente", "Ferramentas", "Passos de IA com falha"],
  },
  {
    name: "agent",
    path: () => "agents/triagem",
    heading: "Triagem",
    texts: ["Configuração", "consultar coleções do CMS", "Acesso ao CMS", "Usado por", "Área de testes", "Executar"],
  },
  { name: "ai-usage", path: () => "ai-usage", heading: "Uso de IA", texts: ["Tokens gastos pelos recursos de IA"] },
  {
    name: "mail-inboxes",
    path: () => "mail-inboxes",
    heading: "Caixas de entrada",
    texts: [
      "Nova caixa de entrada",
      "Conta (nome de usuário)",
      "Servidor IMAP",
      "Depois de ler",
      "Criar caixa de entrada",
      "Caixas de entrada desta empresa",
      "senha em",
      "Última leitura",
      "sem TLS",
    ],
  },
  {
    name: "mail-inbox-oauth",
    path: () => "mail-inboxes",
    heading: "Caixas de entrada",
    act: (page) => page.getByLabel("Autenticação", { exact: true }).first().selectOption("OAUTH2"),
    texts: [
      "Provedor",
      "Concessão",
      "Refresh token (consentimento de uma pessoa)",
      "Segredo do cliente",
      "URL do token",
    ],
  },
  {
    name: "mail-rules",
    path: () => "mail-rules",
    heading: "Regras de e-mail",
    texts: [
      "Nova regra",
      "Inicia o processo",
      "O e-mail deve corresponder",
      "tanto faz",
      "Criar regra",
      "Regras, na ordem em que são testadas",
      "qualquer caixa de entrada",
      "assunto tem “Reembolso”",
    ],
  },
  {
    name: "mail-deliveries",
    path: () => "mail-deliveries",
    heading: "Entregas de e-mail",
    texts: ["Resultado", "sem correspondência", "Nenhum e-mail lido ainda."],
  },
];

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
    await page.locator("label.lang-switch select").selectOption("pt-BR");
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
