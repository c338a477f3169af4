import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

interface Offered {
  key: string;
  name: string;
  description: string | null;
  updatedAt: string;
}
interface Decision {
  key: string;
  name: string;
  version: number;
  sourceTemplate?: string | null;
}

/**
 * Modeler: the platform's DMN templates (GET /a/decision-templates) and the company's decisions made from each; Copy
 * deploys a template as the company's own decision (a new version when it exists: POST /a/decisions/from-template/{key}),
 * which the company then edits like any other.
 */
export function DecisionTemplatesPage() {
  const offered = useLoad(() => api<Offered[]>("GET", "/a/decision-templates"));
  const decisions = useLoad(() => api<Decision[]>("GET", "/a/decisions"));
  const [done, setDone] = useState<{ key: string; version: number }[] | null>(null);
  const { error, run } = useAction();
  const copy = (o: Offered) =>
    run(async () => {
      const r = await api<{ decisions: { key: string; version: number }[] }>(
        "POST",
        `/a/decisions/from-template/${encodeURIComponent(o.key)}`,
      );
      setDone(r.decisions);
      decisions.reload();
    });
  const rows = offered.data ?? [];
  const fromTemplate = (key: string) => (decisions.data ?? []).filter((d) => d.sourceTemplate === key);
  return html`<section>
    <h1>${t("DMN templates")}</h1>
    <p class="hint">${t("Decision tables the platform offers. A copy becomes this company's own decision.")}</p>
    <${Alert} error=${error} />
    ${
      done
        ? html`<p class="notice" role="status">${t("Copied:")} ${done.map(
            (d, i) =>
              html`${i ? ", " : ""}<a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}`}>${d.key}</a> ${t("version {n}", { n: d.version })}`,
          )}.</p>`
        : null
    }
    ${!offered.data ? html`<${Pending} error=${offered.error} />` : null}
    ${offered.data && !rows.length ? html`<p class="empty">${t("The platform offers no DMN templates yet (a platform administrator publishes them).")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Templates")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Description")}</th><th>${t("Updated")}</th><th>${t("In this company")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map((o) => {
        const mine = fromTemplate(o.key);
        return html`<tr key=${o.key} data-key=${o.key}><td>${o.name}</td><td><code>${o.key}</code></td><td>${o.description ?? ""}</td>
          <td>${when(o.updatedAt)}</td>
          <td>${mine.length ? mine.map((d, i) => html`${i ? ", " : ""}<a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}`}>${d.name}</a> v${d.version}`) : t("none")}</td>
          <td><button type="button" aria-label=${t("Copy {name}", { name: o.name })} onClick=${() => copy(o)}>${t("Copy into this company")}</button></td></tr>`;
      })}</tbody></table>`
        : null
    }
  </section>`;
}
