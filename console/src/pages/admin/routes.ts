import type { VNode } from "preact";
import { html } from "../../html";
import { ApiKeysPage } from "../settings/api-keys";
import { RobotConfigPage } from "../settings/robot-config";
import { RobotsPage } from "../settings/robots";
import { WebhookDeliveriesPage } from "../settings/webhook-deliveries";
import { WebhooksPage } from "../settings/webhooks";
import { AdminMembersPage } from "./members";
import { AdminUsersPage } from "./users";

/**
 * The administration pages, or null for another route: the platform's (`#/admin/users`, `#/admin/tenants/{id}/members`,
 * SA) and the company's (`#/settings/...`, tenant Admin: API keys, webhooks, robots).
 */
export function adminPage([a, b, c, d]: string[]): VNode | null {
  if (a === "admin" && b === "users") return html`<${AdminUsersPage} />` as VNode;
  if (a === "admin" && b === "tenants" && c && d === "members")
    return html`<${AdminMembersPage} tenantId=${c} />` as VNode;
  if (a !== "settings") return null;
  return html`<div><${SettingsNav} current=${b ?? "api-keys"} />${settingsPage(b, c)}</div>` as VNode;
}

const SETTINGS = [
  ["api-keys", "API keys"],
  ["webhooks", "Webhooks"],
  ["robots", "Robots"],
] as const;

function SettingsNav({ current }: { current: string }) {
  return html`<nav class="subnav" aria-label="Company settings">
    ${SETTINGS.map(([p, label]) => html`<a href=${`#/settings/${p}`} aria-current=${p === current ? "page" : undefined}>${label}</a>`)}
  </nav>`;
}

function settingsPage(b: string | undefined, c: string | undefined) {
  if (b === "webhooks" && c) return html`<${WebhookDeliveriesPage} id=${c} />`;
  if (b === "webhooks") return html`<${WebhooksPage} />`;
  if (b === "robots" && c) return html`<${RobotConfigPage} robotKey=${c} />`;
  if (b === "robots") return html`<${RobotsPage} />`;
  return html`<${ApiKeysPage} />`;
}
