import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

interface TenantTemplate {
  key: string;
  name: string;
  version: number;
  subscription: {
    status: "SUBSCRIBED" | "DIVERGED";
    appliedVersion: number | null;
    definitionVersion: number | null;
    since: string;
  } | null;
}

/**
 * Process templates (Admin; GET /a/process-templates): the platform's ready-made processes. Subscribing deploys one as
 * the company's own definition and keeps it updated with each later version until the company deploys its own
 * (DIVERGED); unsubscribing (confirmed) stops the updates and leaves the definitions here.
 */
export function TemplateSubscriptionsPage() {
  const list = useLoad(() => api<TenantTemplate[]>("GET", "/a/process-templates"));
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const subscribe = (p: TenantTemplate) =>
    run(async () => {
      await api("PUT", `/a/process-templates/${encodeURIComponent(p.key)}/subscription`);
      setDone(t("Subscribed to {name}: the process {key} is deployed in this company.", { name: p.name, key: p.key }));
      list.reload();
    });
  const unsubscribe = (p: TenantTemplate) => {
    const ask = t("Unsubscribe from {name}? The process stays, but later versions of the template no longer arrive.", {
      name: p.name,
    });
    if (!confirm(ask)) return;
    return run(async () => {
      await api("DELETE", `/a/process-templates/${encodeURIComponent(p.key)}/subscription`);
      setDone(t("Unsubscribed from {name}.", { name: p.name }));
      list.reload();
    });
  };
  const rows = list.data ?? [];
  return html`<section>
    <h1>${t("Process templates")}</h1>
    <p class="hint">${t("Ready-made processes offered by the platform. A subscribed one is deployed here and updated with each new version.")}</p>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("The platform offers no process templates yet (a platform administrator publishes them).")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Templates")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Version")}</th><th>${t("Here")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map((p) => {
        const s = p.subscription;
        return html`<tr data-key=${p.key}><td>${p.name}</td><td><code>${p.key}</code></td><td>v${p.version}</td>
          <td>${
            !s
              ? t("not subscribed")
              : s.status === "DIVERGED"
                ? html`<span class="status SUSPENDED">${t("diverged")}</span><br /><small>${t("this company deployed its own version; template updates stop")}</small>`
                : html`<span class="status ACTIVE">${t("subscribed")}</span><br /><small>${t("template v{version} since {date}", { version: s.appliedVersion ?? "?", date: when(s.since) })}</small>`
          }</td>
          <td>${
            s
              ? html`<button type="button" class="danger" aria-label=${t("Unsubscribe from {name}", { name: p.name })} onClick=${() => unsubscribe(p)}>${t("Unsubscribe")}</button>`
              : html`<button type="button" aria-label=${t("Subscribe to {name}", { name: p.name })} onClick=${() => subscribe(p)}>${t("Subscribe")}</button>`
          }</td></tr>`;
      })}</tbody></table>`
        : null
    }
  </section>`;
}
