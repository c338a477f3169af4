import type { Page } from "playwright-core";
import { common } from "../../console/src/locales/pt-BR/common";
import { settings } from "../../console/src/locales/pt-BR/settings";

// The pages console-i18n-settings-e2e visits in Portuguese (Brazil), what each must show, and how a page's text is read
// and searched for English left behind.

/** Ids of what the test creates through the API, for the detail pages' addresses. */
export const ids = { webhook: "", collection: "", base: "" };

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
export const MAIN_TEXT = (serverText: string) => {
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
export const englishIn = (text: string) =>
  ENGLISH.filter((en) => new RegExp(`(?<![\\p{L}._-])${escape(en)}(?![\\p{L}_-])`, "u").test(text));

/**
 * Each page: its address under #/settings/, the Portuguese heading, other Portuguese texts it must show, and where it
 * shows text the server sends as it is (left out of the English check, as are identifiers in code elements).
 */
export const PAGES: {
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
    texts: ["Nova fonte de dados", "Tipo", "linhas fixas", "Configuração (JSON)", "Testar", "FIXA"],
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
    texts: ["Novo agente", "Instruções", "Criar agente", "Ferramentas", "Etapas de IA com falha"],
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
