import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { deployFile } from "./deploy";

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
    <h2 id="deploy-h">Deploy a file</h2>
    <${Alert} error=${error} />
    ${done.length ? html`<div class="notice" role="status">${done.map((l) => html`<p>${l}</p>`)}</div>` : null}
    <div class="field"><label for="d-file">BPMN, CMMN or DMN file</label>
      <input id="d-file" type="file" accept=".bpmn,.cmmn,.dmn,.xml" required
        onChange=${(e: Event) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} /></div>
    <button type="submit" class="primary" disabled=${!file}>Deploy</button>
  </form>`;
}

/** Modelers: deploy a file, draw a new BPMN diagram, and the tenant's definitions and decision tables. */
export function ModelerHome() {
  const data = useLoad(() =>
    Promise.all([api<Definition[]>("GET", "/a/definitions"), api<Decision[]>("GET", "/a/decisions")]),
  );
  return html`<section>
    <h1>Modeler</h1>
    ${hasRole("MODELER", "ADMIN") ? null : html`<p class="alert" role="alert">This area needs the Modeler or Admin role.</p>`}
    <p><a class="button-link" href="#/modeler/new">Draw a new BPMN diagram</a>
      <a class="button-link" href="#/modeler/new-decision">New decision table</a>
      <a href="#/modeler/roles">Process roles: who receives the work</a></p>
    <${DeployForm} onDeployed=${data.reload} />
    ${!data.data ? html`<${Pending} error=${data.error} />` : null}
    <table class="grid"><caption>Processes and cases</caption>
      <thead><tr><th>Key</th><th>Name</th><th>Type</th><th>Latest</th><th>Published</th><th></th></tr></thead>
      <tbody>${(data.data?.[0] ?? []).map(
        (d) => html`<tr data-key=${d.key}><td><code>${d.key}</code></td><td>${d.name}</td><td>${d.type}</td>
          <td>v${d.latestVersion}</td><td>${d.publishedVersion ? `v${d.publishedVersion}` : "—"}</td>
          <td><a href=${`#/modeler/definitions/${encodeURIComponent(d.key)}`} aria-label=${`Versions and forms of ${d.key}`}>Versions and forms</a></td></tr>`,
      )}</tbody>
    </table>
    <table class="grid"><caption>Decision tables</caption>
      <thead><tr><th>Key</th><th>Name</th><th>Version</th><th></th></tr></thead>
      <tbody>${(data.data?.[1] ?? []).map(
        (d) => html`<tr data-key=${d.key}><td><code>${d.key}</code></td><td>${d.name}</td><td>v${d.version}</td>
          <td><a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}/edit`} aria-label=${`Edit ${d.key}`}>Edit</a>
            <a href=${`#/modeler/decisions/${encodeURIComponent(d.key)}`} aria-label=${`Try ${d.key}`}>Try it</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
