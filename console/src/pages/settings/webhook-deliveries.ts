import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { plural, t } from "../../i18n";
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

const STATUSES = ["PENDING", "SUCCEEDED", "FAILED"];
/** A delivery's status as a reader sees it (the API's value stays as it is). */
function statusLabel(s: string): string {
  const names: Record<string, string> = { PENDING: t("PENDING"), SUCCEEDED: t("SUCCEEDED"), FAILED: t("FAILED") };
  return names[s] ?? s;
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
      setSent(
        d.lastStatusCode
          ? t("Test event: {status} (answer {code}).", { status: statusLabel(d.status), code: d.lastStatusCode })
          : t("Test event: {status}.", { status: statusLabel(d.status) }),
      );
      list.reload();
    });
  const redeliver = (d: Delivery) =>
    run(() => api("POST", `/a/webhooks/${id}/deliveries/${d.id}/redeliver`).then(list.reload));
  return html`<section>
    <p><a href="#/settings/webhooks">← Webhooks</a></p>
    <h1>${t("Deliveries")} <span class="muted">${hook.data?.url ?? ""}</span></h1>
    <${Alert} error=${error ?? hook.error} />
    ${sent ? html`<div class="notice" role="status">${sent}</div>` : null}
    <div class="filters">
      <button type="button" onClick=${test}>${t("Send a test event")}</button>
      <button type="button" onClick=${list.reload}>${t("Refresh")}</button>
      <label for="d-status">${t("Status")}</label>
      <select id="d-status" value=${status} onChange=${(e: Event) => setStatus(valueOf(e))}>
        <option value="">${t("All")}</option>${STATUSES.map((s) => html`<option value=${s}>${statusLabel(s)}</option>`)}
      </select>
    </div>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.content.length ? html`<p class="empty">${t("No deliveries yet. Send a test event above, or wait for one of the subscribed events.")}</p>` : null}
    <table class="grid"><caption>${list.data ? plural(list.data.totalElements, "{n} delivery", "{n} deliveries") : t("Deliveries")}</caption>
      <thead><tr><th>${t("Event")}</th><th>${t("Status")}</th><th>${t("Attempts")}</th><th>${t("Last answer")}</th><th>${t("Created")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${(list.data?.content ?? []).map(
        (d) => html`<tr><td>${d.eventType}</td><td><span class=${`status ${d.status}`}>${statusLabel(d.status)}</span>
          ${d.nextAttemptAt ? html`<br /><small>${t("next {date}", { date: when(d.nextAttemptAt) })}</small>` : null}</td>
          <td>${d.attempts}</td><td>${d.lastStatusCode ?? "—"}</td><td>${when(d.createdAt)}</td>
          <td>${d.status === "FAILED" ? html`<button type="button" onClick=${() => redeliver(d)}>${t("Redeliver")}</button>` : null}</td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
