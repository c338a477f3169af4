import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
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
  const copy = (t: Offered) =>
    run(async () => {
      const r = await api<{ decisions: { key: string; version: number }[] }>(
        "POST",
        `/a/decisions/from-template/${encodeURIComponent(t.key)}`,
      );
      setDone(r.decisions);
      decisions.reload();
    });
  const rows = offered.data ?? [];
  const fromTemplate = (key: string) => (decisions.data ?? []).filter((d) => d.sourceTemplate === key);
  return html`<section>
    <h1>DMN templates</h1>
    <p class="hint">Decision tables the platform offers. A copy becomes this company's own decision.</p>
    <${Alert} error=${error} />
    ${
      done
        ? html`<p class="notice" role="status">Copied: ${done.map(
            (d, i) =>
              html`${i ? ", " : ""}<a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}`}>${d.key}</a> version ${d.version}`,
          )}.</p>`
        : null
    }
    ${!offered.data ? html`<${Pending} error=${offered.error} />` : null}
    ${offered.data && !rows.length ? html`<p class="empty">The platform offers no DMN templates yet (a platform administrator publishes them).</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>Templates</caption>
      <thead><tr><th>Name</th><th>Key</th><th>Description</th><th>Updated</th><th>In this company</th><th>Actions</th></tr></thead>
      <tbody>${rows.map((t) => {
        const mine = fromTemplate(t.key);
        return html`<tr key=${t.key} data-key=${t.key}><td>${t.name}</td><td><code>${t.key}</code></td><td>${t.description ?? ""}</td>
          <td>${when(t.updatedAt)}</td>
          <td>${mine.length ? mine.map((d, i) => html`${i ? ", " : ""}<a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}`}>${d.name}</a> v${d.version}`) : "none"}</td>
          <td><button type="button" aria-label=${`Copy ${t.name}`} onClick=${() => copy(t)}>Copy into this company</button></td></tr>`;
      })}</tbody></table>`
        : null
    }
  </section>`;
}
