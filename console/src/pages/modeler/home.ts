import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { deployFile } from "./deploy";
import { t } from "../../i18n";

interface Definition {
  key: string;
  name: string;
  type: string;
  latestVersion: number;
  publishedVersion: number | null;
  enabled: boolean;
  suspended: boolean;
}
interface Decision {
  key: string;
  name: string;
  version: number;
}

function DeployForm({ onDeployed }: { onDeployed(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState<string[]>([]);
  const { error, run } = useAction();
  const deploy = (e: Event) => {
    e.preventDefault();
    setDone([]);
    return run(async () => {
      setDone(await deployFile(file as File));
      (e.currentTarget as HTMLFormElement | null)?.reset();
      setFile(null);
      onDeployed();
    });
  };
  return html`<form class="inline" onSubmit=${deploy} aria-labelledby="deploy-h">
    <h2 id="deploy-h">${t("Deploy a file")}</h2>
    <${Alert} error=${error} />
    ${done.length ? html`<div class="notice" role="status">${done.map((l) => html`<p>${l}</p>`)}</div>` : null}
    <div class="field"><label for="d-file">${t("BPMN, CMMN or DMN file")}</label>
      <input id="d-file" type="file" accept=".bpmn,.cmmn,.dmn,.xml" required
        onChange=${(e: Event) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} /></div>
    <button type="submit" class="primary" disabled=${!file}>${t("Deploy")}</button>
  </form>`;
}

/** Modelers: deploy a file, draw a new BPMN diagram, and the tenant's definitions and decision tables. */
export function ModelerHome() {
  const data = useLoad(() =>
    Promise.all([api<Definition[]>("GET", "/a/definitions"), api<Decision[]>("GET", "/a/decisions")]),
  );
  return html`<section>
    <h1>${t("Modeler")}</h1>
    ${hasRole("MODELER", "ADMIN") ? null : html`<p class="alert" role="alert">${t("This area needs the Modeler or Admin role.")}</p>`}
    <p><a class="button-link" href="#/modeler/new">${t("Draw a new BPMN diagram")}</a>
      <a class="button-link" href="#/modeler/new-decision">${t("New decision table")}</a>
      <a href="#/modeler/roles">${t("Process roles: who receives the work")}</a></p>
    <${DeployForm} onDeployed=${data.reload} />
    ${!data.data ? html`<${Pending} error=${data.error} />` : null}
    <table class="grid"><caption>${t("Processes and cases")}</caption>
      <thead><tr><th>${t("Key")}</th><th>${t("Name")}</th><th>${t("Type")}</th><th>${t("Latest")}</th><th>${t("Published")}</th><th></th></tr></thead>
      <tbody>${(data.data?.[0] ?? []).map(
        (d) => html`<tr data-key=${d.key}><td><code>${d.key}</code></td><td>${d.name}</td><td>${d.type}</td>
          <td>v${d.latestVersion}</td><td>${d.publishedVersion ? `v${d.publishedVersion}` : "—"}</td>
          <td><a href=${`#/modeler/definitions/${encodeURIComponent(d.key)}`} aria-label=${t("Versions and forms of {key}", { key: d.key })}>${t("Versions and forms")}</a></td></tr>`,
      )}</tbody>
    </table>
    <table class="grid"><caption>${t("Decision tables")}</caption>
      <thead><tr><th>${t("Key")}</th><th>${t("Name")}</th><th>${t("Version")}</th><th></th></tr></thead>
      <tbody>${(data.data?.[1] ?? []).map(
        (d) => html`<tr data-key=${d.key}><td><code>${d.key}</code></td><td>${d.name}</td><td>v${d.version}</td>
          <td><a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}/edit`} aria-label=${t("Edit {key}", { key: d.key })}>${t("Edit")}</a>
            <a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}`} aria-label=${t("Try {key}", { key: d.key })}>${t("Try it")}</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
