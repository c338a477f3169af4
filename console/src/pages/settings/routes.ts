import type { VNode } from "preact";
import { hasRole } from "../../api";
import { html } from "../../html";
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
const SETTINGS: { path: string; label: string; roles: string[]; page: Page }[] = [
  { path: "api-keys", label: "API keys", roles: ["ADMIN"], page: () => html`<${ApiKeysPage} />` as VNode },
  {
    path: "webhooks",
    label: "Webhooks",
    roles: ["ADMIN"],
    page: (id) => (id ? html`<${WebhookDeliveriesPage} id=${id} />` : html`<${WebhooksPage} />`) as VNode,
  },
  {
    path: "robots",
    label: "Robots",
    roles: ["ADMIN"],
    page: (key) => (key ? html`<${RobotConfigPage} robotKey=${key} />` : html`<${RobotsPage} />`) as VNode,
  },
  {
    path: "processes",
    label: "Processes",
    roles: ["MODELER", "ADMIN"],
    page: (key) => (key ? html`<${ProcessSettingsPage} processKey=${key} />` : html`<${ProcessesPage} />`) as VNode,
  },
  {
    path: "variables",
    label: "Variables",
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${VariablesPage} />` as VNode,
  },
  {
    path: "cms",
    label: "CMS",
    roles: ["MANAGER", "MODELER", "ADMIN"],
    page: (id) => (id ? html`<${CmsCollectionPage} id=${id} />` : html`<${CmsCollectionsPage} />`) as VNode,
  },
  {
    path: "data-sources",
    label: "Data sources",
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${DataSourcesPage} />` as VNode,
  },
  {
    path: "dmn-templates",
    label: "DMN templates",
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${DecisionTemplatesPage} />` as VNode,
  },
  {
    path: "delegates",
    label: "Delegates",
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${DelegatesPage} />` as VNode,
  },
  {
    path: "document-types",
    label: "Document types",
    roles: ["MANAGER", "MODELER", "ADMIN"],
    page: () => html`<${DocumentTypesPage} />` as VNode,
  },
  {
    path: "knowledge",
    label: "Knowledge bases",
    roles: ["MANAGER", "MODELER", "ADMIN"],
    page: (id) => (id ? html`<${KnowledgeBasePage} id=${id} />` : html`<${KnowledgeBasesPage} />`) as VNode,
  },
  {
    path: "agents",
    label: "Agents",
    roles: ["MODELER", "ADMIN"],
    page: (key) => (key ? html`<${AgentPage} agentKey=${key} />` : html`<${AgentsPage} />`) as VNode,
  },
  { path: "mail-inboxes", label: "Mail inboxes", roles: ["ADMIN"], page: () => html`<${MailInboxesPage} />` as VNode },
  {
    path: "mail-rules",
    label: "Mail rules",
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${MailRulesPage} />` as VNode,
  },
  {
    path: "mail-deliveries",
    label: "Mail deliveries",
    roles: ["MODELER", "ADMIN"],
    page: () => html`<${MailDeliveriesPage} />` as VNode,
  },
  { path: "ai-usage", label: "AI usage", roles: ["ADMIN"], page: () => html`<${CompanyAiUsagePage} />` as VNode },
  {
    path: "templates",
    label: "Process templates",
    roles: ["ADMIN"],
    page: () => html`<${TemplateSubscriptionsPage} />` as VNode,
  },
];

const ROLE_NAMES: Record<string, string> = { ADMIN: "an Admin", MODELER: "a Modeler", MANAGER: "a Manager" };
/** "a Manager, a Modeler or an Admin" */
function who(roles: string[]): string {
  const names = roles.map((r) => ROLE_NAMES[r] ?? r);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0];
}

/** The subnavigation's groups, in order; every page of SETTINGS is in one. */
const GROUPS: [string, string[]][] = [
  ["Access", ["api-keys", "webhooks", "robots"]],
  ["Processes", ["processes", "variables", "dmn-templates", "delegates", "templates"]],
  ["Data", ["cms", "data-sources", "document-types"]],
  ["AI", ["knowledge", "agents", "ai-usage"]],
  ["Mail", ["mail-inboxes", "mail-rules", "mail-deliveries"]],
];
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
    ? html`<p class="alert" role="alert">Your role in this company reaches no settings.</p>`
    : allowed.includes(wanted)
      ? wanted.page(c)
      : html`<section><h1>${wanted.label}</h1>
          <p class="alert" role="alert">Only ${who(wanted.roles)} may open this page.</p></section>`;
  return html`<div>
    <nav class="subnav grouped" aria-label="Company settings">
      ${GROUPS.map(([group]) => {
        const links = allowed.filter((p) => GROUPS[groupOf(p.path)][0] === group);
        return links.length
          ? html`<span class="subnav-group"><span class="group-label" aria-hidden="true">${group}</span>
              ${links.map((p) => html`<a href=${`#/settings/${p.path}`} aria-current=${p === wanted ? "page" : undefined}>${p.label}</a>`)}</span>`
          : null;
      })}
    </nav>
    ${body}
  </div>` as VNode;
}
