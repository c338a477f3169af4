import { api } from "../../api";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useLoad } from "../../use-load";
import { ProcessConfig } from "./process-config";
import { ProcessDocuments } from "./process-documents";
import { ProcessKnowledge } from "./process-knowledge";
import { ProcessVariables } from "./process-variables";

interface Definition {
  key: string;
  name: string;
  type: string;
  latestVersion: number;
}

/** Modeler, Admin: the company's processes, each opening its settings page. */
export function ProcessesPage() {
  const list = useLoad(() => api<Definition[]>("GET", "/a/definitions"));
  const rows = list.data ?? [];
  return html`<section>
    <h1>${t("Process settings")}</h1>
    <p class="hint">${t("Per process: business key, what AI assistants may do, how long ended instances are kept, attachments, configuration variables and the knowledge its AI steps search.")}</p>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("No processes yet: deploy one in the Modeler first.")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Processes")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Type")}</th><th>${t("Latest version")}</th></tr></thead>
      <tbody>${rows.map(
        (
          d,
        ) => html`<tr key=${d.key} data-key=${d.key}><td><a href=${`#/settings/processes/${encodeURIComponent(d.key)}`}>${d.name}</a></td>
          <td><code>${d.key}</code></td><td>${d.type}</td><td>v${d.latestVersion}</td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}

/** One process's settings: configuration, configuration variables, linked knowledge bases, its own documents. */
export function ProcessSettingsPage({ processKey }: { processKey: string }) {
  return html`<section>
    <p><a href="#/settings/processes">← ${t("Process settings")}</a></p>
    <h1>${t("Settings of")} <code>${processKey}</code></h1>
    <${ProcessConfig} processKey=${processKey} />
    <${ProcessVariables} processKey=${processKey} />
    <${ProcessKnowledge} processKey=${processKey} />
    <${ProcessDocuments} processKey=${processKey} />
  </section>`;
}
