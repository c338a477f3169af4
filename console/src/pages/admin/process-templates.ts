import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";

interface Template {
  key: string;
  name: string;
  xml: string;
  enabled: boolean;
  version: number;
  subscribers: number;
  updatedAt: string;
}
type Replication = { APPLIED: number; UP_TO_DATE: number; DIVERGED: number };
const companies = (n: number) => `${n} ${n === 1 ? "company" : "companies"}`;

/** The XML of a template (BPMN, or DMN with `kind`), from a chosen file (read in the browser) or pasted. */
export function XmlField({
  id,
  value,
  onValue,
  required,
  kind = "BPMN",
}: {
  id: string;
  value: string;
  onValue(v: string): void;
  required: boolean;
  kind?: "BPMN" | "DMN";
}) {
  const read = (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (file) void file.text().then(onValue);
  };
  return html`<div class="field"><label for=${`${id}-file`}>${kind} file</label>
      <input id=${`${id}-file`} type="file" accept=${kind === "DMN" ? ".dmn,.xml" : ".bpmn,.xml"} onChange=${read} /></div>
    <div class="field"><label for=${`${id}-xml`}>or its XML</label>
      <textarea id=${`${id}-xml`} class="code" rows="4" required=${required} value=${value}
        onInput=${(e: Event) => onValue(valueOf(e))}></textarea></div>`;
}

function NewTemplate({ onCreated }: { onCreated(t: Template): void }) {
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const [xml, setXml] = useState("");
  const [enabled, setEnabled] = useState(true);
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      onCreated(
        await api<Template>("POST", "/admin/process-templates", { key: key.trim(), name: name.trim(), xml, enabled }),
      );
      setKey("");
      setName("");
      setXml("");
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-pt">
    <h2 id="new-pt">New template</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="pt-key">Key (the process id in the file)</label>
        <input id="pt-key" required maxlength="100" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
      <div class="field"><label for="pt-name">Name</label>
        <input id="pt-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
    </div>
    <${XmlField} id="pt" value=${xml} onValue=${setXml} required=${true} />
    <label class="choice"><input type="checkbox" checked=${enabled} onChange=${(e: Event) => setEnabled(checkedOf(e))} />
      Subscribe new companies when they are created</label>
    <button type="submit" class="primary">Create template</button>
  </form>`;
}

/** A new version of a template's XML (PUT): deployed into every subscriber that has not diverged. */
function NewVersion({ t, onSaved }: { t: Template; onSaved(r: Replication): void }) {
  const [xml, setXml] = useState("");
  const { error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () =>
      onSaved(
        (
          await api<{ replication: Replication }>("PUT", `/admin/process-templates/${encodeURIComponent(t.key)}`, {
            xml,
          })
        ).replication,
      ),
    );
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${`New version of ${t.name}`}>
    <h2>New version of ${t.name}</h2>
    <${Alert} error=${error} />
    <${XmlField} id="ptv" value=${xml} onValue=${setXml} required=${true} />
    <button type="submit" class="primary">Publish version ${t.version + 1}</button>
  </form>`;
}

/** SA: the global process templates (/admin/process-templates): create, publish a new version, switch, delete. */
export function ProcessTemplatesPage() {
  const list = useLoad(() => api<Template[]>("GET", "/admin/process-templates"));
  const [versioning, setVersioning] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const after = (message: string) => {
    setVersioning(null);
    setDone(message);
    list.reload();
  };
  const setEnabled = (t: Template, enabled: boolean) =>
    run(() =>
      api("PUT", `/admin/process-templates/${encodeURIComponent(t.key)}`, { enabled }).then(() =>
        after(`${t.name}: new companies are ${enabled ? "" : "no longer "}subscribed.`),
      ),
    );
  const remove = (t: Template) => {
    if (
      !confirm(`Delete the template “${t.name}”? Subscribed companies keep their processes but get no more versions.`)
    )
      return;
    return run(() =>
      api("DELETE", `/admin/process-templates/${encodeURIComponent(t.key)}`).then(() => after(`${t.name} deleted.`)),
    );
  };
  const rows = list.data ?? [];
  const current = rows.find((t) => t.key === versioning);
  return html`<section>
    <h1>Process templates</h1>
    <${NewTemplate} onCreated=${(t: Template) => after(`Template ${t.name} created (version ${t.version}).`)} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      current
        ? html`<${NewVersion} t=${current} key=${current.key} onSaved=${(r: Replication) =>
            after(
              `${current.name} updated: applied in ${companies(r.APPLIED)}, ${r.UP_TO_DATE} already up to date, ${r.DIVERGED} diverged.`,
            )} />
        <button type="button" onClick=${() => setVersioning(null)}>Cancel</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">No templates yet. Create one above from a BPMN file; companies then subscribe to it.</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>Global process templates</caption>
      <thead><tr><th>Name</th><th>Key</th><th>Version</th><th>Subscribers</th><th>New companies</th><th>Updated</th><th>Actions</th></tr></thead>
      <tbody>${rows.map(
        (
          t,
        ) => html`<tr data-key=${t.key}><td>${t.name}</td><td><code>${t.key}</code></td><td>v${t.version}</td><td>${t.subscribers}</td>
          <td>${t.enabled ? "subscribed" : "not subscribed"}</td><td>${when(t.updatedAt)}</td>
          <td class="actions-cell"><button type="button" aria-label=${`New version of ${t.name}`} onClick=${() => setVersioning(t.key)}>New version</button>
            <button type="button" aria-label=${`${t.enabled ? "Stop offering" : "Offer"} ${t.name} to new companies`} onClick=${() => setEnabled(t, !t.enabled)}>
              ${t.enabled ? "Stop subscribing new" : "Subscribe new"}</button>
            <button type="button" class="danger" aria-label=${`Delete ${t.name}`} onClick=${() => remove(t)}>Delete</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
