import type { VNode } from "preact";
import { html } from "../../html";
import { settingsPage } from "../settings/routes";
import { AiQuotasPage } from "./ai-quotas";
import { DmnTemplatesPage } from "./dmn-templates";
import { AdminMembersPage } from "./members";
import { ProcessTemplatesPage } from "./process-templates";
import { SsoConnectionsPage } from "./sso";
import { AdminUsersPage } from "./users";
import { t } from "../../i18n";

/** The platform's pages an SA reaches from the header's Platform link, under one subnavigation. */
const PLATFORM = [
  ["sso", () => t("SSO connections")],
  ["ai-quotas", () => t("AI quotas and usage")],
  ["templates", () => t("Process templates")],
  ["dmn-templates", () => t("DMN templates")],
] as const;

function PlatformNav({ current }: { current: string }) {
  return html`<nav class="subnav" aria-label=${t("Platform")}>
    ${PLATFORM.map(([p, label]) => html`<a href=${`#/admin/${p}`} aria-current=${p === current ? "page" : undefined}>${label()}</a>`)}
  </nav>`;
}

function platformPage(b: string) {
  if (b === "sso") return html`<${SsoConnectionsPage} />`;
  if (b === "ai-quotas") return html`<${AiQuotasPage} />`;
  if (b === "dmn-templates") return html`<${DmnTemplatesPage} />`;
  return html`<${ProcessTemplatesPage} />`;
}

/**
 * The administration pages, or null for another route: the platform's (`#/admin/users`, `#/admin/tenants/{id}/members`,
 * `#/admin/sso`, `#/admin/ai-quotas`, `#/admin/templates`, `#/admin/dmn-templates`: SA; the API refuses anyone else) and the company's
 * (`#/settings/...`, by tenant role).
 */
export function adminPage([a, b, c, d]: string[]): VNode | null {
  if (a === "admin" && b === "users") return html`<${AdminUsersPage} />` as VNode;
  if (a === "admin" && b === "tenants" && c && d === "members")
    return html`<${AdminMembersPage} tenantId=${c} />` as VNode;
  if (a === "admin" && PLATFORM.some(([p]) => p === b))
    return html`<div><${PlatformNav} current=${b} />${platformPage(b)}</div>` as VNode;
  if (a === "settings") return settingsPage(b, c);
  return null;
}
