import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
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
  const subscribe = (t: TenantTemplate) =>
    run(async () => {
      await api("PUT", `/a/process-templates/${encodeURIComponent(t.key)}/subscription`);
      setDone(`Subscribed to ${t.name}: the process ${t.key} is deployed in this company.`);
      list.reload();
    });
  const unsubscribe = (t: TenantTemplate) => {
    if (!confirm(`Unsubscribe from ${t.name}? The process stays, but later versions of the template no longer arrive.`))
      return;
    return run(async () => {
      await api("DELETE", `/a/process-templates/${encodeURIComponent(t.key)}/subscription`);
      setDone(`Unsubscribed from ${t.name}.`);
      list.reload();
    });
  };
  const rows = list.data ?? [];
  return html`<section>
    <h1>Process templates</h1>
    <p class="hint">Ready-made processes offered by the platform. A subscribed one is deployed here and updated with each new version.</p>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">The platform offers no process templates yet (a platform administrator publishes them).</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>Templates</caption>
      <thead><tr><th>Name</th><th>Key</th><th>Version</th><th>Here</th><th>Actions</th></tr></thead>
      <tbody>${rows.map((t) => {
        const s = t.subscription;
        return html`<tr data-key=${t.key}><td>${t.name}</td><td><code>${t.key}</code></td><td>v${t.version}</td>
          <td>${
            !s
              ? "not subscribed"
              : s.status === "DIVERGED"
                ? html`<span class="status SUSPENDED">diverged</span><br /><small>this company deployed its own version; template updates stop</small>`
                : html`<span class="status ACTIVE">subscribed</span><br /><small>template v${s.appliedVersion ?? "?"} since ${when(s.since)}</small>`
          }</td>
          <td>${
            s
              ? html`<button type="button" class="danger" aria-label=${`Unsubscribe from ${t.name}`} onClick=${() => unsubscribe(t)}>Unsubscribe</button>`
              : html`<button type="button" aria-label=${`Subscribe to ${t.name}`} onClick=${() => subscribe(t)}>Subscribe</button>`
          }</td></tr>`;
      })}</tbody></table>`
        : null
    }
  </section>`;
}
