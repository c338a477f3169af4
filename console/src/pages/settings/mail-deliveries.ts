import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { plural, t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

interface Delivery {
  id: string;
  fromAddress: string | null;
  subject: string | null;
  receivedAt: string | null;
  outcome: "PENDING" | "STARTED" | "CORRELATED" | "NO_MATCH" | "NO_RULE" | "FAILED";
  instanceId: string | null;
  businessKey: string | null;
  reason: string | null;
  createdAt: string;
}
interface Page {
  content: Delivery[];
  number: number;
  totalPages: number;
  totalElements: number;
}

const OUTCOMES = ["PENDING", "STARTED", "CORRELATED", "NO_MATCH", "NO_RULE", "FAILED"];
const SIZE = 50;
/** An outcome as a reader sees it (the API's value stays as it is). */
function outcomeLabel(o: string): string {
  const names: Record<string, string> = {
    PENDING: t("pending"),
    STARTED: t("started"),
    CORRELATED: t("correlated"),
    NO_MATCH: t("no match"),
    NO_RULE: t("no rule"),
    FAILED: t("failed"),
  };
  return names[o] ?? o;
}
const statusClass = (o: Delivery["outcome"]) =>
  o === "STARTED" || o === "CORRELATED"
    ? "SUCCEEDED"
    : o === "FAILED"
      ? "FAILED"
      : o === "PENDING"
        ? "PENDING"
        : "SUSPENDED";

/**
 * Mail deliveries (Modeler; GET /a/mail-deliveries): every message read and what became of it, newest first, by
 * outcome and page; a FAILED one can be run through the rules again (POST .../retry).
 */
export function MailDeliveriesPage() {
  const [outcome, setOutcome] = useState("");
  const [page, setPage] = useState(0);
  const list = useLoad(
    () => api<Page>("GET", `/a/mail-deliveries?page=${page}&size=${SIZE}${outcome ? `&outcome=${outcome}` : ""}`),
    [outcome, page],
  );
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const retry = (d: Delivery) =>
    run(async () => {
      const r = await api<Delivery>("POST", `/a/mail-deliveries/${d.id}/retry`);
      setDone(
        t("“{subject}” tried again: {outcome}.", {
          subject: d.subject ?? t("(no subject)"),
          outcome: outcomeLabel(r.outcome),
        }),
      );
      list.reload();
    });
  const rows = list.data?.content ?? [];
  // Managers and Admins see every instance; a Modeler takes no part in mail-started ones, so gets no dead link.
  const seesAll = hasRole("MANAGER", "ADMIN");
  return html`<section>
    <h1>${t("Mail deliveries")}</h1>
    <div class="filters"><div class="field"><label for="md-outcome">${t("Outcome")}</label>
      <select id="md-outcome" value=${outcome} onChange=${(e: Event) => {
        setOutcome(valueOf(e));
        setPage(0);
      }}><option value="">${t("all")}</option>${OUTCOMES.map((o) => html`<option value=${o}>${outcomeLabel(o)}</option>`)}</select></div></div>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${outcome ? t("No message with this outcome.") : t("No mail read yet. Once an inbox is connected, each message it reads is listed here with what the rules did.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${plural(list.data?.totalElements ?? 0, "{n} message, newest first", "{n} messages, newest first")}</caption>
      <thead><tr><th>${t("Received")}</th><th>${t("From")}</th><th>${t("Subject")}</th><th>${t("Outcome")}</th><th>${t("Instance")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (
          d,
        ) => html`<tr data-subject=${d.subject ?? ""}><td>${when(d.receivedAt ?? d.createdAt)}</td><td>${d.fromAddress ?? ""}</td>
          <td>${d.subject ?? html`<em>${t("no subject")}</em>`}</td>
          <td><span class=${`status ${statusClass(d.outcome)}`}>${outcomeLabel(d.outcome)}</span>
            ${d.reason ? html`<br /><small>${d.reason}</small>` : null}</td>
          <td>${d.instanceId && seesAll ? html`<a href=${`#/instances/${d.instanceId}`}>${d.businessKey ?? t("open")}</a>` : (d.businessKey ?? "")}</td>
          <td>${
            d.outcome === "FAILED"
              ? html`<button type="button" aria-label=${t("Try {subject} again", { subject: d.subject ?? t("the message") })} onClick=${() => retry(d)}>${t("Try again")}</button>`
              : null
          }</td></tr>`,
      )}</tbody></table>`
        : null
    }
    ${
      list.data && list.data.totalPages > 1
        ? html`<div class="row-actions"><button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>${t("Newer")}</button>
          <span>${t("page {page} of {pages}", { page: page + 1, pages: list.data.totalPages })}</span>
          <button type="button" disabled=${page + 1 >= list.data.totalPages} onClick=${() => setPage(page + 1)}>${t("Older")}</button></div>`
        : null
    }
  </section>`;
}
