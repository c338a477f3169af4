import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, ShownOnce, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
}

/**
 * The event types a webhook may subscribe to, read from the service's own OpenAPI document (the enum of
 * CreateWebhookRequest.events), so the console never keeps a second list that could drift from the server's.
 */
async function eventTypes(): Promise<string[]> {
  const res = await fetch("/v3/api-docs");
  if (!res.ok) throw new Error(t("The API description answered {status}", { status: res.status }));
  const doc = (await res.json()) as {
    components: { schemas: Record<string, { properties?: Record<string, { items?: { enum?: string[] } }> }> };
  };
  return doc.components.schemas.CreateWebhookRequest?.properties?.events?.items?.enum ?? [];
}

function NewWebhook({ onCreated }: { onCreated(): void }) {
  const types = useLoad(eventTypes);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const { error, run } = useAction();
  const toggle = (type: string) => (e: Event) =>
    setEvents(checkedOf(e) ? [...events, type] : events.filter((x) => x !== type));
  const create = (e: Event) => {
    e.preventDefault();
    setSecret(null);
    return run(async () => {
      const w = await api<Webhook & { secret: string }>("POST", "/a/webhooks", {
        url: url.trim(),
        events,
        description: description.trim() || null,
      });
      setSecret(w.secret);
      setUrl("");
      setDescription("");
      setEvents([]);
      onCreated();
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-w">
    <h2 id="new-w">${t("New webhook")}</h2>
    <${Alert} error=${error} />
    ${secret ? html`<${ShownOnce} id="w-secret" label=${t("Signing secret")} value=${secret} />` : null}
    <div class="row-fields">
      <div class="field"><label for="w-url">URL</label>
        <input id="w-url" type="url" required value=${url} onInput=${(e: Event) => setUrl(valueOf(e))} /></div>
      <div class="field"><label for="w-desc">${t("Description")}</label>
        <input id="w-desc" value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
    </div>
    <fieldset><legend>${t("Events")}</legend>
      ${!types.data ? html`<${Pending} error=${types.error} />` : null}
      ${(types.data ?? []).map(
        (type) =>
          html`<label class="choice"><input type="checkbox" checked=${events.includes(type)} onChange=${toggle(type)} /> ${type}</label>`,
      )}
    </fieldset>
    <button type="submit" class="primary">${t("Create webhook")}</button>
  </form>`;
}

/** Tenant Admin: the webhooks (GET /a/webhooks), creating one (its secret shown once), enabling and disabling. */
export function WebhooksPage() {
  const list = useLoad(() => api<Webhook[]>("GET", "/a/webhooks"));
  const { error, run } = useAction();
  const setEnabled = (w: Webhook, enabled: boolean) =>
    run(() => api("PATCH", `/a/webhooks/${w.id}`, { enabled }).then(list.reload));
  return html`<section>
    <h1>Webhooks</h1>
    <${NewWebhook} onCreated=${list.reload} />
    <${Alert} error=${error} />
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.length ? html`<p class="empty">${t("No webhooks yet. Create one above to have events posted to your system, signed with its secret.")}</p>` : null}
    <table class="grid"><caption>${t("Webhooks of this company")}</caption>
      <thead><tr><th>URL</th><th>${t("Events")}</th><th>${t("Status")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${(list.data ?? []).map(
        (
          w,
        ) => html`<tr data-url=${w.url}><td>${w.url}${w.description ? html`<br /><small>${w.description}</small>` : null}</td>
          <td>${w.events.join(", ")}</td>
          <td><span class=${`status ${w.enabled ? "ACTIVE" : "SUSPENDED"}`}>${w.enabled ? t("enabled") : t("disabled")}</span>
            ${w.disabledReason ? html`<br /><small>${w.disabledReason}</small>` : null}
            ${w.failingSince ? html`<br /><small>${t("failing since {date}", { date: when(w.failingSince) })}</small>` : null}</td>
          <td class="actions-cell">
            <button type="button" aria-label=${w.enabled ? t("Disable {url}", { url: w.url }) : t("Enable {url}", { url: w.url })}
              onClick=${() => setEnabled(w, !w.enabled)}>${w.enabled ? t("Disable") : t("Enable")}</button>
            <a href=${`#/settings/webhooks/${w.id}`} aria-label=${t("Deliveries of {url}", { url: w.url })}>${t("Deliveries")}</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
