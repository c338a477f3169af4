import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { t } from "../../i18n";

interface Version {
  definitionId: string;
  version: number;
  published: boolean;
  createdAt: string;
  type: string;
  name: string;
}
interface FormSummary {
  key: string;
  name: string;
  latestVersionNum: number;
  publishedVersionNum: number | null;
}

const enc = encodeURIComponent;

/**
 * One process or case for Modelers: its versions with the published one marked and a Publish button on the others
 * (POST .../versions/{definitionId}/publish), editing the diagram (BPMN), and the forms of the process.
 */
export function DefinitionPage({ processKey }: { processKey: string }) {
  const data = useLoad(
    () =>
      Promise.all([
        api<Version[]>("GET", `/a/definitions/${enc(processKey)}/versions`),
        api<FormSummary[]>("GET", `/a/definitions/${enc(processKey)}/forms`),
      ]),
    [processKey],
  );
  const { error, run } = useAction();
  if (!data.data) return html`<${Pending} error=${data.error} />`;
  const [versions, forms] = data.data;
  const publish = (v: Version) =>
    run(() =>
      api("POST", `/a/definitions/${enc(processKey)}/versions/${enc(v.definitionId)}/publish`).then(data.reload),
    );
  const type = versions[0]?.type;
  return html`<section>
    <p><a href="#/modeler">← ${t("Modeler")}</a></p>
    <h1>${versions[0]?.name || processKey} <span class="muted">${processKey} · ${type}</span></h1>
    ${type === "BPMN" ? html`<p><a class="button-link" href=${`#/modeler/edit/${enc(processKey)}`}>${t("Edit the diagram of the latest version")}</a></p>` : null}
    <${Alert} error=${error} />
    <table class="grid"><caption>${t("Versions")}</caption>
      <thead><tr><th>${t("Version")}</th><th>${t("Deployed")}</th><th>${t("Published")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${versions.map(
        (v) => html`<tr data-version=${v.version}><td>v${v.version}</td><td>${when(v.createdAt)}</td>
          <td>${v.published ? html`<strong class="status ACTIVE">${t("published")}</strong>` : "—"}</td>
          <td>${v.published ? null : html`<button type="button" aria-label=${t("Publish version {n}", { n: v.version })} onClick=${() => publish(v)}>${t("Publish")}</button>`}</td></tr>`,
      )}</tbody>
    </table>
    <h2>${t("Forms")}</h2>
    <p><a class="button-link" href=${`#/modeler/forms/${enc(processKey)}`}>${t("New form")}</a></p>
    <table class="grid"><caption>${t("Forms of this process")}</caption>
      <thead><tr><th>${t("Key")}</th><th>${t("Name")}</th><th>${t("Latest")}</th><th>${t("Published")}</th><th></th></tr></thead>
      <tbody>${forms.map(
        (
          f,
        ) => html`<tr data-key=${f.key}><td><code>${f.key}</code></td><td>${f.name}</td><td>v${f.latestVersionNum}</td>
          <td>${f.publishedVersionNum ? `v${f.publishedVersionNum}` : "—"}</td>
          <td><a href=${`#/modeler/forms/${enc(processKey)}/${enc(f.key)}`} aria-label=${t("Edit form {key}", { key: f.key })}>${t("Edit")}</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
