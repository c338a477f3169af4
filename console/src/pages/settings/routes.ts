import type { VNode } from "preact";
import { hasRole } from "../../api";
import { html } from "../../html";
import { t } from "../../i18n";
import { AgentPage } from "./agent";
import { CompanyAiUsagePage } from "./ai-usage";
import { AgentsPage } from "./agents";
import { ApiKeysPage } from "./api-keys";
import { CmsCollectionPage } from "./cms-collection";
import { CmsCollectionsPage } from "./cms-collections";
import { DataSourcesPage } from "./data-sources";
import { DecisionTemplatesPage } from "./decision-templates";
import { DelegatesPage } from "./delegates";
import { DocumentTypesPage } from "./document-types";
import { KnowledgeBasePage } from "./knowledge-base";
import { KnowledgeBasesPage } from "./knowledge-bases";
import { MailDeliveriesPage } from "./mail-deliveries";
import { MailInboxesPage } from "./mail-inboxes";
import { MailRulesPage } from "./mail-rules";
import { ProcessesPage, ProcessSettingsPage } from "./processes";
import { RobotConfigPage } from "./robot-config";
import { RobotsPage } from "./robots";
import { TemplateSubscriptionsPage } from "./template-subscriptions";
import { VariablesPage } from "./variables";
import { WebhookDeliveriesPage } from "./webhook-deliveries";
import { WebhooksPage } from "./webhooks";

type Page = (sub: string | undefined) => VNode;

/**
 * The company's settings (`#/settings/<page>[/<id>]`): each page with the tenant roles the API lets reach it (SA
 * passes every check). The navigation lists only the caller's; a page reached by its address without the role says so
 * instead of showing the API's 403.
 */
const SETTINGS: { path: string; label: () => string; roles: string[]; page: Page }[] = [
  { path: "api-keys", label: () => t("API keys"), roles: ["ADMIN"], page: () => html`<${ApiKeysPage} />` as VNode },
  {
    path: "webhooks",
    label: () => "Webhooks",
    roles: ["ADMIN"],
    page: (id) => (id ? html`<${WebhookDeliveriesPage} id=${id} />` : html`<${WebhooksPage} />`) as VNode,
  },
  {
    path: "robots",
    label: () => t("Robots"),
    roles: ["ADMIN"],
    page: (key) => (key ? html`<${RobotConfigPage} robotKey=${key} />` : html`<${RobotsPage} />`) as VNode,
  },
  {
    path: "processes",
    label: () => t("Processes"),
    roles: ["MODELER", "ADMIN"],
    page: (key) => (key ? html`<${ProcessSettingsPage} processKey=${key} />` : html`<${ProcessesPage} />`) as VNode,
  },
  {
    path: "variables",
    label: () => t("Variables"),
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${VariablesPage} />` as VNode,
  },
  {
    path: "cms",
    label: () => "CMS",
    roles: ["MANAGER", "MODELER", "ADMIN"],
    page: (id) => (id ? html`<${CmsCollectionPage} id=${id} />` : html`<${CmsCollectionsPage} />`) as VNode,
  },
  {
    path: "data-sources",
    label: () => t("Data sources"),
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${DataSourcesPage} />` as VNode,
  },
  {
    path: "dmn-templates",
    label: () => t("DMN templates"),
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${DecisionTemplatesPage} />` as VNode,
  },
  {
    path: "delegates",
    label: () => t("Delegates"),
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${DelegatesPage} />` as VNode,
  },
  {
    path: "document-types",
    label: () => t("Document types"),
    roles: ["MANAGER", "MODELER", "ADMIN"],
    page: () => html`<${DocumentTypesPage} />` as VNode,
  },
  {
    path: "knowledge",
    label: () => t("Knowledge bases"),
    roles: ["MANAGER", "MODELER", "ADMIN"],
    page: (id) => (id ? html`<${KnowledgeBasePage} id=${id} />` : html`<${KnowledgeBasesPage} />`) as VNode,
  },
  {
    path: "agents",
    label: () => t("Agents"),
    roles: ["MODELER", "ADMIN"],
    page: (key) => (key ? html`<${AgentPage} agentKey=${key} />` : html`<${AgentsPage} />`) as VNode,
  },
  {
    path: "mail-inboxes",
    label: () => t("Mail inboxes"),
    roles: ["ADMIN"],
    page: () => html`<${MailInboxesPage} />` as VNode,
  },
  {
    path: "mail-rules",
    label: () => t("Mail rules"),
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${MailRulesPage} />` as VNode,
  },
  {
    path: "mail-deliveries",
    label: () => t("Mail deliveries"),
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${MailDeliveriesPage} />` as VNode,
  },
  {
    path: "ai-usage",
    label: () => t("AI usage"),
    roles: ["ADMIN"],
    page: () => html`<${CompanyAiUsagePage} />` as VNode,
  },
  {
    path: "templates",
    label: () => t("Process templates"),
    roles: ["ADMIN"],
    page: () => html`<${TemplateSubscriptionsPage} />` as VNode,
  },
];

const ROLE_NAMES: Record<string, () => string> = {
  ADMIN: () => t("an Admin"),
  MODELER: () => t("a Modeler"),
  MANAGER: () => t("a Manager"),
};
/** "a Manager, a Modeler or an Admin" */
function who(roles: string[]): string {
  const names = roles.map((r) => ROLE_NAMES[r]?.() ?? r);
  return names.length > 1
    ? t("{list} or {last}", { list: names.slice(0, -1).join(", "), last: names.at(-1) ?? "" })
    : names[0];
}

/** The subnavigation's groups, in order; every page of SETTINGS is in one. */
const GROUPS: [string, string[]][] = [
  ["Access", ["api-keys", "webhooks", "robots"]],
  ["Processes", ["processes", "variables", "dmn-templates", "delegates", "templates"]],
  ["Data", ["cms", "data-sources", "document-types"]],
  ["AI", ["knowledge", "agents", "ai-usage"]],
  ["Mail", ["mail-inboxes", "mail-rules", "mail-deliveries"]],
];
/** A group's name as a reader sees it (the English names above are its keys). */
const GROUP_NAMES: Record<string, () => string> = {
  Access: () => t("Access"),
  Processes: () => t("Processes"),
  Data: () => t("Data"),
  AI: () => t("AI"),
  Mail: () => t("Mail"),
};
const groupOf = (path: string) => GROUPS.findIndex(([, paths]) => paths.includes(path));

const mine = () =>
  SETTINGS.filter((p) => hasRole(...p.roles)).sort(
    (x, y) =>
      groupOf(x.path) - groupOf(y.path) ||
      GROUPS[groupOf(x.path)][1].indexOf(x.path) - GROUPS[groupOf(y.path)][1].indexOf(y.path),
  );

/** Where the header's Settings link leads: the caller's first settings page, or null when they reach none. */
export function firstSettings(): string | null {
  const first = mine()[0];
  return first ? `#/settings/${first.path}` : null;
}

/** `#/settings/<b>/<c>`: the subnavigation and the page, or the refusal of a page the caller's role does not reach. */
export function settingsPage(b: string | undefined, c: string | undefined): VNode {
  const allowed = mine();
  const wanted = SETTINGS.find((p) => p.path === b) ?? allowed[0];
  const body = !allowed.length
    ? html`<p class="alert" role="alert">${t("Your role in this company reaches no settings.")}</p>`
    : allowed.includes(wanted)
      ? wanted.page(c)
      : html`<section><h1>${wanted.label()}</h1>
          <p class="alert" role="alert">${t("Only {who} may open this page.", { who: who(wanted.roles) })}</p></section>`;
  return html`<div>
    <nav class="subnav grouped" aria-label=${t("Company settings")}>
      ${GROUPS.map(([group]) => {
        const links = allowed.filter((p) => GROUPS[groupOf(p.path)][0] === group);
        return links.length
          ? html`<span class="subnav-group"><span class="group-label" aria-hidden="true">${GROUP_NAMES[group]()}</span>
              ${links.map((p) => html`<a href=${`#/settings/${p.path}`} aria-current=${p === wanted ? "page" : undefined}>${p.label()}</a>`)}</span>`
          : null;
      })}
    </nav>
    ${body}
  </div>` as VNode;
}
