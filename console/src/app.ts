import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { hasRole, logout, onSessionChange, session } from "./api";
import { html } from "./html";
import { useRoute } from "./router";
import { LoginPage } from "./pages/login";
import { TenantPicker } from "./pages/tenant-picker";
import { TasksPage } from "./pages/tasks";
import { MonitorList, MonitorPage } from "./pages/monitor";
import { AdminTenantsPage } from "./pages/admin-tenants";
import { adminPage } from "./pages/admin/routes";
import { isSsoReturn, SsoReturnPage } from "./pages/sso-return";
import { InstancePage } from "./pages/instance";
import { firstSettings } from "./pages/settings/routes";
import { NotificationBell } from "./notification-bell";
import { NotificationsPage } from "./pages/notifications";
import { AiFailuresPage } from "./pages/ai-failures";
import { LangSwitch } from "./lang-switch";
import { Pending, useLoad } from "./use-load";
import { lang, onLangChange, t } from "./i18n";

/** The skip link moves focus (a hash link would change the route). */
function skipToMain(e: Event) {
  e.preventDefault();
  document.getElementById("main")?.focus();
}

function Nav() {
  const s = session();
  const links: [string, string, boolean][] = [
    ["#/tasks", t("Tasks"), !!s?.tenant],
    ["#/processes", t("Start a process"), !!s?.tenant],
    ["#/monitor", t("Monitor"), !!s?.tenant && hasRole("MANAGER", "ADMIN")],
    ["#/modeler", t("Modeler"), !!s?.tenant && hasRole("MODELER", "ADMIN")],
    [firstSettings() ?? "", t("Settings"), !!s?.tenant && !!firstSettings()],
    ["#/admin/tenants", t("Tenants"), hasRole("SUPER_ADMIN")],
    ["#/admin/users", t("Users"), hasRole("SUPER_ADMIN")],
    ["#/admin/sso", t("Platform"), hasRole("SUPER_ADMIN")],
  ];
  return html`<header class="top">
    <a class="skip" href="#main" onClick=${skipToMain}>${t("Skip to content")}</a>
    <nav aria-label=${t("Main")}>
      ${links.filter(([, , on]) => on).map(([href, label]) => html`<a href=${href}>${label}</a>`)}
    </nav>
    <div class="who">
      ${s?.tenant ? html`<${NotificationBell} key=${s.tenant} />` : null}
      <a href="#/tenants" title=${t("Switch company")}>${s?.tenants.find((x) => x.slug === s.tenant)?.name ?? t("Choose a company")}</a>
      <span class="email">${s?.user.email}</span>
      <${LangSwitch} />
      <button type="button" onClick=${() => void logout().then(() => (location.hash = "#/login"))}>${t("Log out")}</button>
    </div>
  </header>`;
}

/**
 * A page whose code is a lazy chunk: the forms (their FEEL conditions and RE2 patterns) and the modeler's pages are
 * fetched by the pages that show them, so the first load carries neither.
 */
function LazyPage({ load }: { load: () => Promise<VNode | null> }) {
  const page = useLoad(load);
  return page.data ?? html`<${Pending} error=${page.error} />`;
}

function Page({ parts }: { parts: string[] }) {
  const s = session();
  const [a, b] = parts;
  if (a === "tenants" || (!s?.tenant && a !== "admin")) return html`<${TenantPicker} />`;
  if (a === "tasks" && b)
    return html`<${LazyPage} load=${() => import("./pages/task").then((m) => html`<${m.TaskPage} id=${b} />`)} />`;
  if (a === "processes")
    return html`<${LazyPage}
      load=${() =>
        import("./pages/catalog").then((m) =>
          b ? html`<${m.StartPage} processKey=${b} />` : html`<${m.CatalogPage} />`,
        )}
    />`;
  if (a === "modeler")
    return html`<${LazyPage} load=${() => import("./pages/modeler/routes").then((m) => m.modelerPage(parts))} />`;
  if (a === "instances" && b) return html`<${InstancePage} id=${b} />`;
  if (a === "monitor" && b) return html`<${MonitorPage} processKey=${b} />`;
  if (a === "monitor") return html`<${MonitorList} />`;
  if (a === "notifications") return html`<${NotificationsPage} />`;
  if (a === "ai-task-failures") return html`<${AiFailuresPage} />`;
  const admin = adminPage(parts);
  if (admin) return admin;
  if (a === "admin" && b === "tenants") return html`<${AdminTenantsPage} />`;
  return html`<${TasksPage} />`;
}

/** The shell: the login page without a session, otherwise the navigation and the page of the current route. */
export function App() {
  const parts = useRoute();
  const [, rerender] = useState(0);
  useEffect(() => onSessionChange(() => rerender((n) => n + 1)), []);
  useEffect(() => onLangChange(() => rerender((n) => n + 1)), []);
  if (isSsoReturn()) return html`<main id="main" tabindex="-1"><${SsoReturnPage} /></main>`;
  if (!session())
    return html`<div class="top-lang"><${LangSwitch} /></div><main id="main" tabindex="-1"><${LoginPage} /></main>`;
  return html`<${Nav} /><main id="main" tabindex="-1"><${Page} parts=${parts} key=${`${lang()}:${parts.join("/")}`} /></main>`;
}
