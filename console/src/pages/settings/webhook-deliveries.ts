import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import type { Webhook } from "./webhooks";

interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** One webhook's deliveries (GET /a/webhooks/{id}/deliveries), a test event sent at once, redelivery of a failed one. */
export function WebhookDeliveriesPage({ id }: { id: string }) {
  const [status, setStatus] = useState("");
  const hook = useLoad(() => api<Webhook>("GET", `/a/webhooks/${id}`), [id]);
  const list = useLoad(
    () =>
      api<{ content: Delivery[]; totalElements: number }>(
        "GET",
        `/a/webhooks/${id}/deliveries?size=50${status ? `&status=${status}` : ""}`,
      ),
    [id, status],
  );
  const [sent, setSent] = useState<string | null>(null);
  const { error, run } = useAction();
  const test = () =>
    run(async () => {
      setSent(null);
      const d = await api<Delivery>("POST", `/a/webhooks/${id}/test`);
      setSent(`Test event: ${d.status}${d.lastStatusCode ? ` (answer ${d.lastStatusCode})` : ""}.`);
      list.reload();
    });
  const redeliver = (d: Delivery) =>
    run(() => api("POST", `/a/webhooks/${id}/deliveries/${d.id}/redeliver`).then(list.reload));
  return html`<section>
    <p><a href="#/settings/webhooks">← Webhooks</a></p>
    <h1>Deliveries <span class="muted">${hook.data?.url ?? ""}</span></h1>
    <${Alert} error=${error ?? hook.error} />
    ${sent ? html`<div class="notice" role="status">${sent}</div>` : null}
    <div class="filters">
      <button type="button" onClick=${test}>Send a test event</button>
      <button type="button" onClick=${list.reload}>Refresh</button>
      <label for="d-status">Status</label>
      <select id="d-status" value=${status} onChange=${(e: Event) => setStatus(valueOf(e))}>
        <option value="">All</option><option>PENDING</option><option>SUCCEEDED</option><option>FAILED</option>
      </select>
    </div>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.content.length ? html`<p class="empty">No deliveries yet. Send a test event above, or wait for one of the subscribed events.</p>` : null}
    <table class="grid"><caption>${list.data ? `${list.data.totalElements} deliveries` : "Deliveries"}</caption>
      <thead><tr><th>Event</th><th>Status</th><th>Attempts</th><th>Last answer</th><th>Created</th><th>Actions</th></tr></thead>
      <tbody>${(list.data?.content ?? []).map(
        (d) => html`<tr><td>${d.eventType}</td><td><span class=${`status ${d.status}`}>${d.status}</span>
          ${d.nextAttemptAt ? html`<br /><small>next ${when(d.nextAttemptAt)}</small>` : null}</td>
          <td>${d.attempts}</td><td>${d.lastStatusCode ?? "—"}</td><td>${when(d.createdAt)}</td>
          <td>${d.status === "FAILED" ? html`<button type="button" onClick=${() => redeliver(d)}>Redeliver</button>` : null}</td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
