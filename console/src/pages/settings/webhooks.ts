import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, ShownOnce, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
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
  if (!res.ok) throw new Error(`The API description answered ${res.status}`);
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
  const toggle = (t: string) => (e: Event) => setEvents(checkedOf(e) ? [...events, t] : events.filter((x) => x !== t));
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
    <h2 id="new-w">New webhook</h2>
    <${Alert} error=${error} />
    ${secret ? html`<${ShownOnce} id="w-secret" label="Signing secret" value=${secret} />` : null}
    <div class="row-fields">
      <div class="field"><label for="w-url">URL</label>
        <input id="w-url" type="url" required value=${url} onInput=${(e: Event) => setUrl(valueOf(e))} /></div>
      <div class="field"><label for="w-desc">Description</label>
        <input id="w-desc" value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
    </div>
    <fieldset><legend>Events</legend>
      ${!types.data ? html`<${Pending} error=${types.error} />` : null}
      ${(types.data ?? []).map(
        (t) =>
          html`<label class="choice"><input type="checkbox" checked=${events.includes(t)} onChange=${toggle(t)} /> ${t}</label>`,
      )}
    </fieldset>
    <button type="submit" class="primary">Create webhook</button>
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
    ${list.data && !list.data.length ? html`<p class="empty">No webhooks yet. Create one above to have events posted to your system, signed with its secret.</p>` : null}
    <table class="grid"><caption>Webhooks of this company</caption>
      <thead><tr><th>URL</th><th>Events</th><th>Status</th><th>Actions</th></tr></thead>
      <tbody>${(list.data ?? []).map(
        (
          w,
        ) => html`<tr data-url=${w.url}><td>${w.url}${w.description ? html`<br /><small>${w.description}</small>` : null}</td>
          <td>${w.events.join(", ")}</td>
          <td><span class=${`status ${w.enabled ? "ACTIVE" : "SUSPENDED"}`}>${w.enabled ? "enabled" : "disabled"}</span>
            ${w.disabledReason ? html`<br /><small>${w.disabledReason}</small>` : null}
            ${w.failingSince ? html`<br /><small>failing since ${when(w.failingSince)}</small>` : null}</td>
          <td class="actions-cell">
            <button type="button" aria-label=${`${w.enabled ? "Disable" : "Enable"} ${w.url}`}
              onClick=${() => setEnabled(w, !w.enabled)}>${w.enabled ? "Disable" : "Enable"}</button>
            <a href=${`#/settings/webhooks/${w.id}`} aria-label=${`Deliveries of ${w.url}`}>Deliveries</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
